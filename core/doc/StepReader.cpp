#include "doc/StepReader.hpp"

#include <array>

namespace kw {

using namespace fields;

namespace {

constexpr std::array<const char*, 6> kKinds = {"launch", "copy", "fill", "swap", "repeat", "repeat_until"};

std::vector<StepSpec> readStepList(const Json& j, const std::string& field, int depth);

// The one key that says what the step is.
StepSpec::Kind kindOf(const Json& j, const std::string& field)
{
    if (!j.is_object())
        fail(field, std::string("expected a step (an object), got ") + kindName(j));
    const char* found = nullptr;
    std::size_t index = 0;
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
        if (!j.contains(kKinds[k]))
            continue;
        if (found)
            fail(field,
                 std::string("a step is one of launch, copy, fill, swap, repeat, repeat_until; this one says ") + found
                     + " and " + kKinds[k]);
        found = kKinds[k];
        index = k;
    }
    if (!found)
        fail(field, "a step needs one of launch, copy, fill, swap, repeat, repeat_until");
    return static_cast<StepSpec::Kind>(index);
}

void readCommon(const Json& j, const std::string& field, StepSpec& s)
{
    if (j.contains("name"))
        s.name = getString(j["name"], field + ".name");
    if (j.contains("checks"))
        s.checks = readList<CheckSpec>(j["checks"], field + ".checks", readCheck);
}

std::string bufferName(const Json& j, const std::string& field)
{
    const std::string name = getString(j, field);
    if (name.empty())
        fail(field, "is empty (name a buffer)");
    return name;
}

StepSpec readStep(const Json& j, const std::string& field, int depth)
{
    StepSpec s;
    s.kind = kindOf(j, field);
    using K = StepSpec::Kind;
    switch (s.kind) {
    case K::Launch:
        requireObject(j, field, {"launch", "name", "grid", "block", "shared_bytes", "args", "checks"});
        s.kernel = getString(j["launch"], field + ".launch");
        if (s.kernel.empty())
            fail(field + ".launch", "is empty (name one of the document's kernels)");
        if (!j.contains("grid"))
            fail(field + ".grid", "missing");
        if (!j.contains("block"))
            fail(field + ".block", "missing");
        s.launch.grid = readDims(j["grid"], field + ".grid");
        s.launch.block = readDims(j["block"], field + ".block");
        if (j.contains("shared_bytes"))
            s.launch.sharedBytes = getExpression(j["shared_bytes"], field + ".shared_bytes");
        if (!j.contains("args"))
            fail(field + ".args", "missing (one entry per kernel parameter, or \"auto\")");
        if (j["args"].is_string()) {
            if (j["args"] != "auto")
                fail(field + ".args", "expected an array or \"auto\", got \"" + j["args"].get<std::string>() + "\"");
            s.argsAuto = true; // bound by name once the document's buffers are known
        } else {
            s.args = readList<ArgSpec>(j["args"], field + ".args", readArg);
        }
        break;
    case K::Copy:
        requireObject(j, field, {"copy", "name", "to", "count", "from_offset", "to_offset", "checks"});
        s.from = bufferName(j["copy"], field + ".copy");
        if (!j.contains("to"))
            fail(field + ".to", "missing (the buffer copied into)");
        s.to = bufferName(j["to"], field + ".to");
        if (j.contains("count"))
            s.count = getExpression(j["count"], field + ".count");
        if (j.contains("from_offset"))
            s.fromOffset = getExpression(j["from_offset"], field + ".from_offset");
        if (j.contains("to_offset"))
            s.toOffset = getExpression(j["to_offset"], field + ".to_offset");
        break;
    case K::Fill:
        requireObject(j, field, {"fill", "name", "value", "count", "offset", "checks"});
        s.to = bufferName(j["fill"], field + ".fill");
        if (!j.contains("value"))
            fail(field + ".value", "missing (what every element becomes)");
        s.value = getExpression(j["value"], field + ".value");
        if (j.contains("count"))
            s.count = getExpression(j["count"], field + ".count");
        if (j.contains("offset"))
            s.toOffset = getExpression(j["offset"], field + ".offset");
        break;
    case K::Swap: {
        requireObject(j, field, {"swap", "name", "checks"});
        const Json& pair = j["swap"];
        if (!pair.is_array() || pair.size() != 2)
            fail(field + ".swap", "expected two buffer names, [\"a\", \"b\"]");
        s.from = bufferName(pair[0], field + ".swap[0]");
        s.to = bufferName(pair[1], field + ".swap[1]");
        break;
    }
    case K::Repeat:
    case K::RepeatUntil: {
        const bool until = s.kind == K::RepeatUntil;
        if (until)
            requireObject(j, field, {"repeat_until", "name", "limit", "index", "steps", "checks"});
        else
            requireObject(j, field, {"repeat", "name", "index", "steps", "checks"});
        if (until) {
            s.until = getExpression(j["repeat_until"], field + ".repeat_until");
            if (!j.contains("limit"))
                fail(field + ".limit",
                     "missing: a repeat_until needs a limit on its passes, so that a condition that never holds "
                     "stops the run");
            s.limit = getExpression(j["limit"], field + ".limit");
        } else {
            s.times = getExpression(j["repeat"], field + ".repeat");
        }
        if (j.contains("index"))
            s.index = getString(j["index"], field + ".index");
        if (!j.contains("steps"))
            fail(field + ".steps", "missing (the steps to repeat)");
        if (depth + 1 >= kMaxStepDepth)
            fail(field + ".steps", "repeats nest more than " + std::to_string(kMaxStepDepth) + " deep");
        s.steps = readStepList(j["steps"], field + ".steps", depth + 1);
        if (s.steps.empty())
            fail(field + ".steps", "is empty (a repeat needs steps to repeat)");
        break;
    }
    }
    readCommon(j, field, s);
    return s;
}

std::vector<StepSpec> readStepList(const Json& j, const std::string& field, int depth)
{
    if (!j.is_array())
        fail(field, std::string("expected an array of steps, got ") + kindName(j));
    std::vector<StepSpec> steps;
    for (std::size_t i = 0; i < j.size(); ++i)
        steps.push_back(readStep(j[i], field + "[" + std::to_string(i) + "]", depth));
    return steps;
}

} // namespace

std::vector<StepSpec> readSteps(const Json& j, const std::string& field) { return readStepList(j, field, 0); }

} // namespace kw
