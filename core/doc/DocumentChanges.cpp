#include "doc/DocumentChanges.hpp"

#include "doc/DocumentWriter.hpp"

#include <algorithm>
#include <sstream>

namespace kw {

namespace {

std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

std::string joined(const std::vector<std::string>& parts, const char* separator = " ")
{
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : separator) + p;
    return out;
}

std::string onOff(bool on) { return on ? "on" : "off"; }

// Appends a change when the two texts differ.
struct ChangeList {
    std::vector<DocumentChange> items;
    void note(std::string what, const std::string& before, const std::string& after)
    {
        if (before != after)
            items.push_back({std::move(what), before, after});
    }
};

// Lists of (name, value) compared by name: changed and added in `after`'s order, then removed.
void compareNamed(ChangeList& out, const std::string& prefix,
                  const std::vector<std::pair<std::string, std::string>>& before,
                  const std::vector<std::pair<std::string, std::string>>& after)
{
    auto find = [](const auto& list, const std::string& name) -> const std::string* {
        for (const auto& [n, v] : list)
            if (n == name)
                return &v;
        return nullptr;
    };
    for (const auto& [name, value] : after) {
        const std::string* old = find(before, name);
        out.note(prefix + name, old ? *old : std::string(), value);
    }
    for (const auto& [name, value] : before)
        if (!find(after, name))
            out.note(prefix + name, value, std::string());
}

std::string bufferSummary(const BufferSpec& b)
{
    std::string s = std::string(toString(b.dtype)) + "[" + b.count + "] " + toString(b.direction) + ", "
        + DocumentChanges::describe(b.init);
    if (!b.shape.empty())
        s += ", shape " + joined(b.shape, "×");
    return s;
}

void compareBuffers(ChangeList& out, const std::vector<BufferSpec>& before, const std::vector<BufferSpec>& after)
{
    auto find = [](const std::vector<BufferSpec>& list, const std::string& name) -> const BufferSpec* {
        for (const BufferSpec& b : list)
            if (b.name == name)
                return &b;
        return nullptr;
    };
    for (const BufferSpec& b : after) {
        const BufferSpec* a = find(before, b.name);
        const std::string name = (b.global ? "global " : "buffer ") + b.name;
        if (!a) {
            out.note(name, {}, bufferSummary(b));
            continue;
        }
        out.note(name + ", type", toString(a->dtype), toString(b.dtype));
        out.note(name + ", count", a->count, b.count);
        out.note(name + ", shape", joined(a->shape, "×"), joined(b.shape, "×"));
        out.note(name + ", direction", toString(a->direction), toString(b.direction));
        out.note(name + ", initialiser", DocumentChanges::describe(a->init), DocumentChanges::describe(b.init));
        out.note(name + ", plotted", a->plot ? "yes" : "no", b.plot ? "yes" : "no");
    }
    for (const BufferSpec& a : before)
        if (!find(after, a.name))
            out.note((a.global ? "global " : "buffer ") + a.name, bufferSummary(a), {});
}

std::string argText(const ArgSpec& a)
{
    if (a.null)
        return "null";
    if (a.isBuffer())
        return a.offset.empty() ? a.buffer : a.buffer + " + " + a.offset;
    return std::string(toString(a.type)) + " " + a.value;
}

void compareArgs(ChangeList& out, const Document& before, const Document& after)
{
    out.note("arguments", before.argsAuto ? "auto" : "listed", after.argsAuto ? "auto" : "listed");
    const std::size_t n = std::max(before.args.size(), after.args.size());
    for (std::size_t i = 0; i < n; ++i) {
        const ArgSpec* a = i < before.args.size() ? &before.args[i] : nullptr;
        const ArgSpec* b = i < after.args.size() ? &after.args[i] : nullptr;
        const std::string name = (b && !b->name.empty()) ? b->name : (a ? a->name : std::string());
        out.note("argument " + std::to_string(i + 1) + (name.empty() ? "" : " (" + name + ")"),
                 a ? argText(*a) : std::string(), b ? argText(*b) : std::string());
    }
}

void compareOptions(ChangeList& out, const CompileOptions& a, const CompileOptions& b)
{
    std::vector<std::pair<std::string, std::string>> da, db;
    // A define without a value is defined as 1 by the compiler; shown as "defined".
    for (const auto& [n, v] : a.defines)
        da.push_back({n, v.empty() ? "defined" : v});
    for (const auto& [n, v] : b.defines)
        db.push_back({n, v.empty() ? "defined" : v});
    compareNamed(out, "define ", da, db);
    out.note("architecture", a.arch.empty() ? "the device's" : a.arch, b.arch.empty() ? "the device's" : b.arch);
    out.note("C++ standard", a.std, b.std);
    out.note("fast math", onOff(a.fastMath), onOff(b.fastMath));
    out.note("device debug (-G)", onOff(a.deviceDebug), onOff(b.deviceDebug));
    out.note("line info", onOff(a.lineInfo), onOff(b.lineInfo));
    out.note("printf tags", onOff(a.tagPrintf), onOff(b.tagPrintf));
    out.note("include folders", joined(a.includeDirs), joined(b.includeDirs));
    out.note("other options", joined(a.extra), joined(b.extra));
}

std::string checkText(const CheckSpec& c)
{
    std::string s = c.buffer + ": ";
    s += c.aggregate.empty() ? c.expect : c.aggregate + "(" + (c.of.empty() ? c.buffer : c.of) + ") = " + c.expect;
    return s + " (abs " + number(c.absTol) + ", rel " + number(c.relTol) + ")";
}

void compareChecks(ChangeList& out, const std::vector<CheckSpec>& before, const std::vector<CheckSpec>& after)
{
    const std::size_t n = std::max(before.size(), after.size());
    for (std::size_t i = 0; i < n; ++i)
        out.note("check " + std::to_string(i + 1), i < before.size() ? checkText(before[i]) : std::string(),
                 i < after.size() ? checkText(after[i]) : std::string());
}

// Steps are compared in their file form, one top-level step at a time.
void compareSteps(ChangeList& out, const Document& before, const Document& after)
{
    const auto a = DocumentWriter::toJson(before).value("steps", nlohmann::ordered_json::array());
    const auto b = DocumentWriter::toJson(after).value("steps", nlohmann::ordered_json::array());
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        out.note("step " + std::to_string(i + 1), i < a.size() ? a[i].dump() : std::string(),
                 i < b.size() ? b[i].dump() : std::string());
}

// The document as compared here: what the file says, without what is compared elsewhere
// (the source) or is not part of a run (title, notes, where it lives).
nlohmann::ordered_json comparedJson(Document d)
{
    d.source.clear();
    d.sourceFile.clear();
    d.description.clear();
    d.title.clear();
    return DocumentWriter::toJson(d);
}

} // namespace

std::string DocumentChange::text() const
{
    if (before.empty())
        return what + ": added (" + after + ")";
    if (after.empty())
        return what + ": removed (was " + before + ")";
    return what + ": " + before + " → " + after;
}

std::string DocumentChanges::describe(const std::vector<std::string>& dims)
{
    std::size_t n = dims.size();
    while (n > 1 && dims[n - 1] == "1")
        --n;
    return joined(std::vector<std::string>(dims.begin(), dims.begin() + std::ptrdiff_t(n)), ", ");
}

std::string DocumentChanges::describe(const Initialiser& init)
{
    using K = Initialiser::Kind;
    const std::string seed = ", seed " + std::to_string(init.seed);
    switch (init.kind) {
    case K::Zeros: return "zeros";
    case K::Fill: return "fill(" + init.value + ")";
    case K::Arange: return "arange(" + init.start + ", step " + init.step + ")";
    case K::Linspace: return "linspace(" + init.start + ", " + init.stop + ")";
    case K::Uniform: return "uniform(" + number(init.low) + ", " + number(init.high) + seed + ")";
    case K::Normal: return "normal(mean " + number(init.mean) + ", sd " + number(init.stddev) + seed + ")";
    case K::Expression: return "= " + init.expression;
    case K::File: return "file " + init.file;
    case K::Copy: return "copy of " + init.from;
    }
    return toString(init.kind);
}

bool DocumentChanges::sourceChanged(const Document& before, const Document& after)
{
    return before.source != after.source;
}

std::vector<DocumentChange> DocumentChanges::between(const Document& before, const Document& after)
{
    ChangeList out;
    out.note("kernel", before.kernel, after.kernel);
    out.note("kernels", joined(before.kernels, ", "), joined(after.kernels, ", "));
    compareNamed(out, "", before.variables, after.variables);
    out.note("grid", describe(before.launch.grid), describe(after.launch.grid));
    out.note("block", describe(before.launch.block), describe(after.launch.block));
    out.note("shared memory bytes", before.launch.sharedBytes, after.launch.sharedBytes);
    compareBuffers(out, before.buffers, after.buffers);
    compareArgs(out, before, after);
    compareOptions(out, before.options, after.options);
    out.note("warm-up runs", std::to_string(before.run.warmup), std::to_string(after.run.warmup));
    out.note("timed runs", std::to_string(before.run.repeats), std::to_string(after.run.repeats));
    out.note("time limit (s)", number(before.run.timeLimitSeconds), number(after.run.timeLimitSeconds));
    out.note("printf buffer bytes", std::to_string(before.run.printfBufferBytes),
             std::to_string(after.run.printfBufferBytes));
    out.note("loops as CUDA graphs", onOff(before.run.graph), onOff(after.run.graph));
    compareSteps(out, before, after);
    compareChecks(out, before.checks, after.checks);
    // A field this list does not name yet still counts: never "nothing changed" when something did.
    if (out.items.empty() && comparedJson(before) != comparedJson(after))
        out.note("other settings", comparedJson(before).dump(), comparedJson(after).dump());
    return out.items;
}

} // namespace kw
