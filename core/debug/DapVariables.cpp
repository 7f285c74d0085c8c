#include "debug/DapVariables.hpp"

#include "debug/DebugConsole.hpp"
#include "sim/PtxModule.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <fmt/format.h>

namespace kw::debug {

namespace {

// The thread's own indices, before the registers.
const char* const kIndices[]
    = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z", "lane", "warp"};

std::optional<std::uint64_t> number(std::string_view text)
{
    text = trim(text);
    std::uint64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

const char* laneState(char mark)
{
    switch (mark) {
    case 'd': return "  (waiting at another pc)";
    case 'b': return "  (at a barrier)";
    case 'x': return "  (exited)";
    default: return "";
    }
}

nlohmann::json variable(const std::string& name, const std::string& value, int reference = 0)
{
    return {{"name", name}, {"value", value}, {"variablesReference", reference}};
}

} // namespace

std::string sharedWordText(std::uint32_t bits)
{
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return fmt::format("f32 {} · 0x{:08x}", f, bits);
}

DapVariables::DapVariables(DebugSession& session)
    : session_(session)
{
}

int DapVariables::refer(Kind kind, std::string name)
{
    refs_.push_back({kind, session_.focus().warp, std::move(name)});
    return int(refs_.size());
}

const DapVariables::Ref* DapVariables::find(int reference) const
{
    if (reference < 1 || std::size_t(reference) > refs_.size())
        return nullptr;
    return &refs_[std::size_t(reference) - 1];
}

// The kernel's declared registers (%r5, %f6, %p1, %rd3), in their order; special
// registers (%laneid, %tid.x) have no declared type and are left to the indices above.
std::vector<std::string> DapVariables::registers() const
{
    const sim::Function& f = session_.function();
    std::vector<std::string> out;
    for (std::uint32_t i = 0; i < f.regNames.size(); ++i) {
        const std::string& name = f.regNames[i];
        if (!name.empty() && name[0] == '%' && f.registerType(i) != sim::PtxType::None
            && std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
    }
    return out;
}

nlohmann::json DapVariables::scopes()
{
    const Focus f = session_.focus();
    nlohmann::json out = nlohmann::json::array();
    // The source's names first (a client opens its first scope); the registers are labelled
    // as what they are, also where they are all there is (the optimized build).
    if (session_.hasSourceVariables())
        out.push_back({{"name", "Locals"},
                       {"presentationHint", "locals"},
                       {"variablesReference", refer(Kind::Locals)},
                       {"expensive", false}});
    out.push_back({{"name", fmt::format("Lane {} (thread {})", f.lane, std::uint64_t(f.warp) * 32 + f.lane)},
                   {"variablesReference", refer(Kind::Lane)},
                   {"expensive", false}});
    out.push_back({{"name", "PTX registers"},
                   {"presentationHint", "registers"},
                   {"variablesReference", refer(Kind::Registers)},
                   {"expensive", false}});
    out.push_back({{"name", "Lanes"}, {"variablesReference", refer(Kind::Lanes)}, {"expensive", false}});
    out.push_back({{"name", "Shared memory"},
                   {"variablesReference", refer(Kind::Shared)},
                   {"indexedVariables", session_.sharedBytes() / 4},
                   {"expensive", false}});
    out.push_back({{"name", "Buffers"},
                   {"variablesReference", refer(Kind::Buffers)},
                   {"namedVariables", session_.buffers().size()},
                   {"expensive", false}});
    return out;
}

nlohmann::json DapVariables::variables(int reference, std::size_t start, std::size_t count)
{
    const Ref* ref = find(reference);
    if (!ref)
        throw Error(
            ErrorCategory::Usage,
            fmt::format("variablesReference {} is not one of this stop's (the launch has moved since)", reference));
    const Ref r = *ref; // refer() below may move the table
    const Focus keep = session_.focus();
    session_.focusWarp(r.warp);
    if (count == 0 || count > kMostChildren)
        count = kMostChildren;
    nlohmann::json out;
    switch (r.kind) {
    case Kind::Locals: out = localVariables({}); break;
    case Kind::Parts: out = localVariables(r.name); break;
    case Kind::Lane: out = laneVariables(); break;
    case Kind::Registers: out = registerVariables(); break;
    case Kind::Lanes: out = lanesVariables(); break;
    case Kind::ExpressionLanes: out = expressionLanes(r.name); break;
    case Kind::Shared: out = sharedVariables(start, count); break;
    case Kind::Buffers: out = bufferVariables(); break;
    case Kind::Buffer: out = bufferElements(r.name, start, count); break;
    }
    session_.focusWarp(keep.warp);
    return out;
}

nlohmann::json DapVariables::localVariables(const std::string& parent)
{
    const std::uint32_t lane = session_.focus().lane;
    // The locals, or the parts of the one named `parent` (a struct's members, an array's elements).
    std::vector<SourceVariableView> views = session_.locals();
    if (!parent.empty()) {
        std::vector<SourceVariableView> found;
        for (const SourceVariableView& v : views)
            collectParts(v, parent, found);
        views = std::move(found);
    }
    nlohmann::json out = nlohmann::json::array();
    for (const SourceVariableView& v : views) {
        const LaneValue& value = v.lanes.at(lane);
        // `lane` and `warp` keep their meaning in expressions: a variable of such a name is not one.
        const bool expands = v.available && v.scalar && v.name != "lane" && v.name != "warp";
        const int reference = !v.parts.empty() ? refer(Kind::Parts, v.name)
            : expands                          ? refer(Kind::ExpressionLanes, v.name)
                                               : 0;
        // A member by its name (x of p.x), an element by its index ([2] of a(2)).
        std::string name = v.name.substr(parent.size());
        if (!parent.empty())
            name = name.starts_with('.') ? name.substr(1) : fmt::format("[{}]", name.substr(1, name.size() - 2));
        nlohmann::json var = variable(name,
                                      !v.available       ? v.why
                                          : value.exists ? value.text
                                                         : "(not a thread of the block)",
                                      reference);
        var["type"] = v.type;
        if (expands || !v.parts.empty())
            var["evaluateName"] = v.name;
        out.push_back(std::move(var));
    }
    return out;
}

void DapVariables::collectParts(const SourceVariableView& v, const std::string& parent,
                                std::vector<SourceVariableView>& out)
{
    if (v.name == parent) {
        out = v.parts;
        return;
    }
    for (const SourceVariableView& p : v.parts)
        collectParts(p, parent, out);
}

nlohmann::json DapVariables::laneVariables()
{
    nlohmann::json out = nlohmann::json::array();
    for (const char* e : kIndices)
        out.push_back(laneValue(e));
    return out;
}

nlohmann::json DapVariables::registerVariables()
{
    nlohmann::json out = nlohmann::json::array();
    for (const std::string& r : registers())
        out.push_back(laneValue(r));
    return out;
}

// An expression's value in the focused lane, expandable to the warp's 32 lanes.
nlohmann::json DapVariables::laneValue(const std::string& expression)
{
    const LaneValue v = session_.lanes(expression).at(session_.focus().lane);
    nlohmann::json var = variable(expression, v.exists ? v.text : "(not a thread of the block)",
                                  refer(Kind::ExpressionLanes, expression));
    var["evaluateName"] = expression;
    return var;
}

nlohmann::json DapVariables::lanesVariables()
{
    nlohmann::json out = nlohmann::json::array();
    auto add = [&](const std::string& expression) {
        std::string summary;
        int shown = 0, exist = 0;
        for (const LaneValue& v : session_.lanes(expression)) {
            if (!v.exists)
                continue;
            ++exist;
            if (shown < 8)
                summary += (shown++ ? ", " : "") + v.text;
        }
        if (exist > shown)
            summary += ", …";
        nlohmann::json var
            = variable(expression, fmt::format("[{}]", summary), refer(Kind::ExpressionLanes, expression));
        var["evaluateName"] = expression;
        out.push_back(std::move(var));
    };
    add("threadIdx.x");
    for (const std::string& r : registers())
        add(r);
    return out;
}

nlohmann::json DapVariables::expressionLanes(const std::string& expression)
{
    const std::vector<LaneValue> values = session_.lanes(expression);
    const std::string map = laneMap(session_.warp());
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t l = 0; l < values.size(); ++l)
        if (values[l].exists)
            out.push_back(variable(fmt::format("lane {}", l), values[l].text + laneState(map[l])));
    return out;
}

nlohmann::json DapVariables::sharedVariables(std::size_t start, std::size_t count)
{
    const std::size_t words = session_.sharedBytes() / 4;
    nlohmann::json out = nlohmann::json::array();
    if (start >= words)
        return out;
    count = std::min(count, words - start);
    for (const SharedWord& w : session_.shared(DType::U32, std::uint32_t(start * 4), std::uint32_t(count)))
        out.push_back(
            variable(fmt::format("byte {} · bank {}", w.offset, w.bank), sharedWordText(std::uint32_t(w.value))));
    return out;
}

nlohmann::json DapVariables::bufferVariables()
{
    nlohmann::json out = nlohmann::json::array();
    for (const BufferArg& b : session_.buffers()) {
        nlohmann::json var = variable(b.name, fmt::format("{}[{}]", toString(b.data.dtype()), b.data.count()),
                                      refer(Kind::Buffer, b.name));
        var["indexedVariables"] = b.data.count();
        out.push_back(std::move(var));
    }
    return out;
}

nlohmann::json DapVariables::bufferElements(const std::string& buffer, std::size_t start, std::size_t count)
{
    nlohmann::json out = nlohmann::json::array();
    for (const BufferArg& b : session_.buffers()) {
        if (b.name != buffer)
            continue;
        const std::size_t n = b.data.count();
        for (std::size_t i = start; i < n && i - start < count; ++i) {
            const double v = b.data.at(i);
            nlohmann::json var
                = variable(fmt::format("[{}]", i),
                           b.data.dtype() == DType::F32 ? fmt::format("{}", float(v)) : fmt::format("{}", v));
            var["evaluateName"] = fmt::format("{}({})", b.name, i);
            out.push_back(std::move(var));
        }
    }
    return out;
}

nlohmann::json DapVariables::evaluate(const std::string& expression)
{
    const LaneValue v = session_.evaluate(expression);
    return {{"result", v.text}, {"variablesReference", refer(Kind::ExpressionLanes, expression)}};
}

std::optional<std::pair<WatchSpec, std::string>> DapVariables::watchable(int reference, const std::string& name) const
{
    WatchSpec spec;
    const std::string_view text = trim(name);
    auto shared = [&](std::uint64_t offset) {
        spec.buffer.clear();
        spec.index = offset;
        return std::pair(spec, fmt::format("shared {} ({})", offset, toString(spec.type)));
    };
    auto element = [&](const std::string& buffer, std::uint64_t index) {
        spec.buffer = buffer;
        spec.index = index;
        return std::pair(spec, fmt::format("{}({})", buffer, index));
    };
    spec.type = DType::U32;
    if (reference != 0) {
        const Ref* r = find(reference);
        if (!r)
            return std::nullopt;
        if (r->kind == Kind::Shared && text.starts_with("byte ")) {
            const auto dot = text.find(" · ");
            if (const auto offset = number(text.substr(5, dot == std::string_view::npos ? text.npos : dot - 5)))
                return shared(*offset);
        }
        if (r->kind == Kind::Buffer && text.size() > 2 && text.front() == '[' && text.back() == ']')
            if (const auto index = number(text.substr(1, text.size() - 2)))
                return element(r->name, *index);
        return std::nullopt;
    }
    // An expression: "shared OFFSET [TYPE]" or "NAME(i)".
    if (text.starts_with("shared ")) {
        std::string_view rest = trim(text.substr(7));
        const auto space = rest.find(' ');
        if (space != std::string_view::npos) {
            const auto type = parseDType(trim(rest.substr(space + 1)));
            if (!type)
                return std::nullopt;
            spec.type = *type;
            rest = rest.substr(0, space);
        }
        if (const auto offset = number(rest))
            return shared(*offset);
        return std::nullopt;
    }
    const auto open = text.find('(');
    if (open != std::string_view::npos && text.back() == ')')
        if (const auto index = number(text.substr(open + 1, text.size() - open - 2)))
            return element(std::string(trim(text.substr(0, open))), *index);
    return std::nullopt;
}

} // namespace kw::debug
