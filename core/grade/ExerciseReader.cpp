#include "grade/ExerciseReader.hpp"

#include "data/BinaryFile.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "grade/SealedText.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>

namespace kw::grade {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Document, field + ": " + why);
}

void onlyKeys(const json& object, const std::string& field, const std::set<std::string>& allowed)
{
    if (!object.is_object())
        refuse(field.empty() ? "exercise" : field, "must be an object");
    for (const auto& [key, value] : object.items())
        if (!allowed.count(key)) {
            std::string list;
            for (const auto& a : allowed)
                list += (list.empty() ? "" : ", ") + a;
            refuse(field.empty() ? key : field + "." + key, "unknown key (allowed: " + list + ")");
        }
}

std::string text(const json& object, const std::string& key, const std::string& field, bool required)
{
    if (!object.contains(key)) {
        if (required)
            refuse(field + key, "missing");
        return {};
    }
    if (!object[key].is_string())
        refuse(field + key, "must be a string");
    return object[key].get<std::string>();
}

double number(const json& value, const std::string& field)
{
    if (!value.is_number())
        refuse(field, "must be a number");
    return value.get<double>();
}

// A variable's value: a number or an expression.
std::string expression(const json& value, const std::string& field)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number_integer())
        return std::to_string(value.get<long long>());
    if (value.is_number())
        return fmt::format("{}", value.get<double>());
    refuse(field, "must be a number or an expression");
}

OutputComparison readOutput(const json& o, const std::string& field, const Document& doc)
{
    onlyKeys(o, field, {"buffer", "compare", "atol", "rtol", "ulp", "nan"});
    OutputComparison c;
    c.buffer = text(o, "buffer", field + ".", true);
    const BufferSpec* buffer = doc.findBuffer(c.buffer);
    if (!buffer)
        refuse(field + ".buffer", fmt::format("no buffer named \"{}\" in the document", c.buffer));
    if (buffer->direction == Direction::In)
        refuse(field + ".buffer",
               fmt::format("\"{}\" is an input (direction in): only out and inout buffers are "
                           "outputs",
                           c.buffer));
    const std::string mode = o.contains("compare") ? text(o, "compare", field + ".", true) : "exact";
    if (mode == "exact")
        c.mode = OutputComparison::Mode::Exact;
    else if (mode == "tolerance")
        c.mode = OutputComparison::Mode::Tolerance;
    else if (mode == "ulp")
        c.mode = OutputComparison::Mode::Ulp;
    else
        refuse(field + ".compare", fmt::format("\"{}\" is not one of exact, tolerance, ulp", mode));
    if (o.contains("atol") || o.contains("rtol")) {
        if (c.mode != OutputComparison::Mode::Tolerance)
            refuse(field + (o.contains("atol") ? ".atol" : ".rtol"), "only with \"compare\": \"tolerance\"");
    }
    if (c.mode == OutputComparison::Mode::Tolerance) {
        c.atol = o.contains("atol") ? number(o["atol"], field + ".atol") : 1e-6;
        c.rtol = o.contains("rtol") ? number(o["rtol"], field + ".rtol") : 1e-5;
        if (c.atol < 0 || c.rtol < 0)
            refuse(field + (c.atol < 0 ? ".atol" : ".rtol"), "must not be negative");
    }
    if (o.contains("ulp")) {
        if (c.mode != OutputComparison::Mode::Ulp)
            refuse(field + ".ulp", "only with \"compare\": \"ulp\"");
        if (!o["ulp"].is_number_unsigned() && !(o["ulp"].is_number_integer() && o["ulp"].get<long long>() >= 0))
            refuse(field + ".ulp", "must be a non-negative integer");
        c.ulp = o["ulp"].get<std::uint64_t>();
    } else if (c.mode == OutputComparison::Mode::Ulp) {
        refuse(field + ".ulp", "missing (\"compare\": \"ulp\" needs the most units in the last place allowed)");
    }
    if (c.mode == OutputComparison::Mode::Ulp && !isFloating(buffer->dtype))
        refuse(field + ".compare",
               fmt::format("ulp needs a floating-point buffer; \"{}\" is {}", c.buffer, toString(buffer->dtype)));
    if (o.contains("nan")) {
        const std::string nan = text(o, "nan", field + ".", true);
        if (nan == "match")
            c.nan = OutputComparison::Nan::Match;
        else if (nan == "wrong")
            c.nan = OutputComparison::Nan::Wrong;
        else
            refuse(field + ".nan", fmt::format("\"{}\" is not one of match, wrong", nan));
    }
    return c;
}

GradeCase readCase(const json& c, const std::string& field, const Document& doc)
{
    onlyKeys(c, field, {"name", "variables", "seed"});
    GradeCase gc;
    gc.name = text(c, "name", field + ".", true);
    if (gc.name.empty())
        refuse(field + ".name", "must not be empty");
    if (c.contains("variables")) {
        if (!c["variables"].is_object())
            refuse(field + ".variables", "must be an object of variable names and values");
        for (const auto& [name, value] : c["variables"].items()) {
            const std::string at = field + ".variables." + name;
            bool found = false;
            for (const auto& v : doc.variables)
                found = found || v.first == name;
            if (!found) {
                std::string names;
                for (const auto& v : doc.variables)
                    names += (names.empty() ? "" : ", ") + v.first;
                refuse(at, fmt::format("the document has no variable \"{}\" (variables: {})", name, names));
            }
            gc.variables.emplace_back(name, expression(value, at));
        }
    }
    if (c.contains("seed")) {
        if (!c["seed"].is_number_integer() || c["seed"].get<long long>() < 0)
            refuse(field + ".seed", "must be a non-negative integer");
        gc.seed = c["seed"].get<std::uint64_t>();
    }
    return gc;
}

CounterGoal readGoal(const json& g, const std::string& field, const std::set<std::string>& caseNames)
{
    onlyKeys(g, field, {"metric", "at_most", "at_least", "cases"});
    CounterGoal goal;
    goal.metric = text(g, "metric", field + ".", true);
    if (!CounterGoal::known(goal.metric)) {
        std::string names;
        for (const auto& [name, what] : CounterGoal::metrics())
            names += (names.empty() ? "" : ", ") + name;
        refuse(field + ".metric", fmt::format("\"{}\" is not a metric ({})", goal.metric, names));
    }
    if (g.contains("at_most"))
        goal.atMost = number(g["at_most"], field + ".at_most");
    if (g.contains("at_least"))
        goal.atLeast = number(g["at_least"], field + ".at_least");
    if (!goal.atMost && !goal.atLeast)
        refuse(field, "give at_most or at_least");
    if (g.contains("cases")) {
        if (!g["cases"].is_array())
            refuse(field + ".cases", "must be a list of case names");
        for (std::size_t i = 0; i < g["cases"].size(); ++i) {
            const std::string at = fmt::format("{}.cases[{}]", field, i);
            if (!g["cases"][i].is_string())
                refuse(at, "must be a case name");
            const std::string name = g["cases"][i].get<std::string>();
            if (!caseNames.count(name))
                refuse(at, fmt::format("no case named \"{}\"", name));
            goal.cases.push_back(name);
        }
    }
    return goal;
}

// reference.expect: an expression per output, compared with tolerances (an expression's
// values are doubles: no ulp), checked as the document's checks would be.
void readExpressions(const json& expect, Exercise& ex)
{
    if (!expect.is_object() || expect.empty())
        refuse("reference.expect", "must be an object of output buffers and expressions");
    for (const auto& [buffer, value] : expect.items()) {
        const std::string field = "reference.expect." + buffer;
        if (!ex.output(buffer))
            refuse(field, fmt::format("\"{}\" is not one of the outputs", buffer));
        if (!value.is_string())
            refuse(field, "must be an expression");
        ex.referenceExpect.emplace_back(buffer, value.get<std::string>());
    }
    for (std::size_t i = 0; i < ex.outputs.size(); ++i) {
        const OutputComparison& o = ex.outputs[i];
        if (!expect.contains(o.buffer))
            refuse(fmt::format("outputs[{}].buffer", i),
                   fmt::format("\"{}\" has no expression in reference.expect", o.buffer));
        if (o.mode == OutputComparison::Mode::Ulp)
            refuse(fmt::format("outputs[{}].compare", i),
                   "ulp needs a reference kernel (reference.source): an expression is compared exactly or with "
                   "tolerances");
        if (o.nan == OutputComparison::Nan::Wrong)
            refuse(fmt::format("outputs[{}].nan", i), "\"wrong\" needs a reference kernel (reference.source)");
    }
    Document checked = ex.document;
    checked.checks = ex.referenceChecks();
    try {
        DocumentValidator::validate(checked);
    } catch (const Error& e) {
        // "checks[k].expect: ..." names the expression of the k-th output.
        std::string message = e.what();
        for (std::size_t k = 0; k < checked.checks.size(); ++k) {
            const std::string prefix = fmt::format("checks[{}]", k);
            if (message.rfind(prefix, 0) == 0) {
                const auto colon = message.find(':');
                message = "reference.expect." + checked.checks[k].buffer + message.substr(colon);
                break;
            }
        }
        throw Error(ErrorCategory::Document, message);
    }
}

} // namespace

bool ExerciseReader::isExercise(const std::string& text)
{
    const json j = json::parse(text, nullptr, false);
    return j.is_object() && j.contains("format") && j["format"] == kFormat;
}

Exercise ExerciseReader::readFile(const std::filesystem::path& path, Trust trust)
{
    const HostBytes bytes = BinaryFile::readAll(path);
    return readString(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path, trust);
}

Exercise ExerciseReader::readString(const std::string& source, const std::filesystem::path& path, Trust trust)
{
    json j;
    try {
        j = json::parse(source);
    } catch (const json::parse_error& e) {
        throw Error(ErrorCategory::Document, std::string("not valid JSON: ") + e.what());
    }
    onlyKeys(
        j, "",
        {"format", "version", "title", "statement", "document", "reference", "outputs", "cases", "limits", "goals"});
    if (!j.contains("format") || j["format"] != kFormat)
        refuse("format", fmt::format("must be \"{}\"", kFormat));
    if (!j.contains("version") || !j["version"].is_number_integer())
        refuse("version", "missing (1)");
    if (j["version"].get<int>() > kVersion)
        refuse("version",
               fmt::format("{} is newer than this program reads ({}); update Kernel Workbench", j["version"].get<int>(),
                           kVersion));
    Exercise ex;
    ex.path = path;
    ex.title = text(j, "title", "", false);
    ex.statement = text(j, "statement", "", false);

    if (!j.contains("document"))
        refuse("document", "missing (the kernel-workbench document whose source is the starter)");
    if (!j["document"].is_object())
        refuse("document", "must be an object (a kernel-workbench document)");
    try {
        ex.document = DocumentReader::readString(j["document"].dump(), path, trust);
    } catch (const Error& e) {
        if (e.category() != ErrorCategory::Document && e.category() != ErrorCategory::Expression)
            throw;
        throw Error(e.category(), std::string("document.") + e.what());
    }
    ex.document.path = path;
    if (ex.title.empty())
        ex.title = ex.document.title;

    if (!j.contains("reference"))
        refuse("reference", "missing (the reference kernel: {\"source\": ...} or {\"source_sealed\": ...})");
    const json& ref = j["reference"];
    onlyKeys(ref, "reference", {"source", "source_sealed", "expect"});
    if (int(ref.contains("source")) + int(ref.contains("source_sealed")) + int(ref.contains("expect")) != 1)
        refuse("reference", "give exactly one of source, source_sealed, expect");
    if (ref.contains("source"))
        ex.referenceSource = text(ref, "source", "reference.", true);
    else if (ref.contains("source_sealed"))
        ex.referenceSource
            = SealedText::open(text(ref, "source_sealed", "reference.", true), "reference.source_sealed");

    if (!j.contains("outputs") || !j["outputs"].is_array() || j["outputs"].empty())
        refuse("outputs", "missing (a list of the output buffers and how each is compared)");
    std::set<std::string> outputNames;
    for (std::size_t i = 0; i < j["outputs"].size(); ++i) {
        const std::string field = fmt::format("outputs[{}]", i);
        ex.outputs.push_back(readOutput(j["outputs"][i], field, ex.document));
        if (!outputNames.insert(ex.outputs.back().buffer).second)
            refuse(field + ".buffer", fmt::format("\"{}\" is listed twice", ex.outputs.back().buffer));
    }

    if (ref.contains("expect"))
        readExpressions(ref["expect"], ex);

    if (!j.contains("cases") || !j["cases"].is_array() || j["cases"].empty())
        refuse("cases", "missing (a list of named test cases)");
    std::set<std::string> caseNames;
    for (std::size_t i = 0; i < j["cases"].size(); ++i) {
        const std::string field = fmt::format("cases[{}]", i);
        ex.cases.push_back(readCase(j["cases"][i], field, ex.document));
        if (!caseNames.insert(ex.cases.back().name).second)
            refuse(field + ".name", fmt::format("\"{}\" is already a case's name", ex.cases.back().name));
    }

    if (j.contains("limits")) {
        const json& l = j["limits"];
        onlyKeys(l, "limits", {"instructions", "wall_s"});
        if (l.contains("instructions"))
            ex.limits.instructions = number(l["instructions"], "limits.instructions");
        if (l.contains("wall_s"))
            ex.limits.wallSeconds = number(l["wall_s"], "limits.wall_s");
        if (ex.limits.instructions < 0)
            refuse("limits.instructions", "must not be negative");
        if (ex.limits.wallSeconds <= 0)
            refuse("limits.wall_s", "must be positive");
    }
    if (j.contains("goals")) {
        if (!j["goals"].is_array())
            refuse("goals", "must be a list");
        for (std::size_t i = 0; i < j["goals"].size(); ++i)
            ex.goals.push_back(readGoal(j["goals"][i], fmt::format("goals[{}]", i), caseNames));
    }
    return ex;
}

} // namespace kw::grade
