#include "export/StepCodeWriter.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/ScalarPacker.hpp"
#include "doc/StepPaths.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace kw::exporting {

StepCodeWriter::StepCodeWriter(const ExportPlan& plan, Language language, Spelling spelling, std::string& out)
    : plan_(plan)
    , fields_(plan, language, "run.elem({name}, {j})")
    , spelling_(std::move(spelling))
    , out_(out)
{
}

std::string StepCodeWriter::quoted(const std::string& s) { return nlohmann::json(s).dump(); }

std::string StepCodeWriter::label(const StepSpec& st)
{
    if (!st.name.empty())
        return st.name;
    using K = StepSpec::Kind;
    switch (st.kind) {
    case K::Launch: return st.kernel;
    case K::Copy: return fmt::format("copy {} to {}", st.from, st.to);
    case K::Fill: return fmt::format("fill {} with {}", st.to, st.value);
    case K::Swap: return fmt::format("swap {} and {}", st.from, st.to);
    case K::Repeat: return fmt::format("repeat {}", st.times);
    case K::RepeatUntil: return fmt::format("repeat until {}", st.until);
    }
    return {};
}

void StepCodeWriter::list(const std::vector<StepSpec>& steps, const std::string& field, const std::string& parent,
                          int depth)
{
    for (std::size_t i = 0; i < steps.size(); ++i)
        step(steps[i], fmt::format("{}[{}]", field, i), StepPaths::child(parent, i), depth);
}

std::string StepCodeWriter::pad(int depth) const { return std::string(4 * std::size_t(depth), ' '); }

void StepCodeWriter::line(int depth, const std::string& text) { out_ += pad(depth) + text + "\n"; }

void StepCodeWriter::lines(const std::string& text) { out_ += text; }

std::string StepCodeWriter::count(const std::string& text, const std::string& field)
{
    if (fields_.constant(text, field)) {
        const double v = fields_.value(text, field);
        if (v < 0 || v != std::floor(v))
            throw Error(ErrorCategory::Document, field + ": \"" + text + "\" is not a whole number");
        return std::to_string(std::int64_t(v));
    }
    return spelling_.countFunction + "(" + fields_.code(text, field) + ", " + quoted(field) + ")";
}

std::string StepCodeWriter::scalar(DType type, const std::string& text, const std::string& field)
{
    if (fields_.constant(text, field))
        return scalarLiteral(type, packScalar(type, text, fields_.value(text, field), field));
    return scalarPacked(type, fields_.code(text, field));
}

std::string StepCodeWriter::dims(const std::vector<std::string>& texts, const std::string& field)
{
    std::string s = spelling_.dimsOpen;
    for (std::size_t d = 0; d < 3; ++d)
        s += (d ? ", " : "") + (d < texts.size() ? count(texts[d], fmt::format("{}[{}]", field, d)) : "1");
    return s + spelling_.dimsClose;
}

std::string StepCodeWriter::offset(const std::string& text, const std::string& field)
{
    return text.empty() ? "0" : count(text, field);
}

void StepCodeWriter::call(int depth, const std::string& function, const std::vector<std::string>& args)
{
    std::string s = function + "(";
    for (std::size_t i = 0; i < args.size(); ++i)
        s += (i ? ", " : "") + args[i];
    line(depth, s + ")" + spelling_.statementEnd);
}

void StepCodeWriter::step(const StepSpec& s, const std::string& field, const std::string& path, int depth)
{
    using K = StepSpec::Kind;
    line(depth,
         fmt::format("{} step {}{}: {}", spelling_.comment, path, s.name.empty() ? "" : " (" + s.name + ")",
                     toString(s.kind)));
    switch (s.kind) {
    case K::Launch: {
        std::string args;
        for (std::size_t a = 0; a < s.args.size(); ++a) {
            const ArgSpec& arg = s.args[a];
            const std::string f = argumentField(field + ".args", a, arg);
            const std::string code = arg.isBuffer()
                ? fmt::format("run.buf({}, {})", quoted(arg.buffer), offset(arg.offset, f + ".offset"))
                : argument(scalar(arg.type, arg.value, f + ".value"));
            args += (args.empty() ? "" : ", ") + code;
        }
        call(depth, "run.launch",
             {quoted(path), quoted(s.kernel), dims(s.launch.grid, field + ".grid"),
              dims(s.launch.block, field + ".block"), count(s.launch.sharedBytes, field + ".shared_bytes"),
              spelling_.listOpen + args + spelling_.listClose});
        break;
    }
    case K::Copy: {
        const ExportBuffer& from = plan_.buffers()[plan_.bufferIndex(s.from)];
        call(depth, "run.copy",
             {quoted(path), quoted(s.from), quoted(s.to), offset(s.fromOffset, field + ".from_offset"),
              offset(s.toOffset, field + ".to_offset"),
              s.count.empty() ? std::to_string(from.count) : count(s.count, field + ".count")});
        break;
    }
    case K::Fill: {
        const ExportBuffer& b = plan_.buffers()[plan_.bufferIndex(s.to)];
        const std::string at = offset(s.toOffset, field + ".offset");
        const std::string n = s.count.empty() ? fmt::format("{} - {}", b.count, at) : count(s.count, field + ".count");
        call(depth, "run.fill", {quoted(path), quoted(s.to), scalar(b.dtype, s.value, field + ".value"), at, n});
        break;
    }
    case K::Swap: call(depth, "run.swap", {quoted(path), quoted(s.from), quoted(s.to)}); break;
    case K::Repeat:
    case K::RepeatUntil: repeat(s, field, path, depth); break;
    }
    if (!s.checks.empty())
        checks(s.checks, field, path, depth);
}

} // namespace kw::exporting
