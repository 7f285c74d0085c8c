#include "doc/DocumentReader.hpp"

#include "data/BinaryFile.hpp"
#include "doc/ArgsByName.hpp"
#include "doc/DocumentFields.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/Expression.hpp"
#include "doc/StepReader.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"
#include "util/JsonDepth.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

namespace kw {

using namespace fields;

namespace {

CompileOptions readOptions(const Json& j, const std::string& field)
{
    requireObject(j, field,
                  {"defines", "include_dirs", "std", "arch", "lineinfo", "debug", "fast_math", "tag_printf", "extra"});
    CompileOptions o;
    if (j.contains("defines")) {
        const Json& d = j["defines"];
        const std::string f = field + ".defines";
        if (!d.is_object())
            fail(f, std::string("expected an object of NAME: value, got ") + kindName(d));
        for (const auto& [name, value] : d.items()) {
            if (value.is_null())
                o.defines.emplace_back(name, "");
            else if (value.is_boolean())
                o.defines.emplace_back(name, value.get<bool>() ? "1" : "0");
            else
                o.defines.emplace_back(name, getExpression(value, join(f, name)));
        }
    }
    if (j.contains("include_dirs"))
        o.includeDirs = getStringList(j["include_dirs"], field + ".include_dirs");
    if (j.contains("std"))
        o.std = getString(j["std"], field + ".std");
    if (j.contains("arch"))
        o.arch = getString(j["arch"], field + ".arch");
    if (j.contains("lineinfo"))
        o.lineInfo = getBool(j["lineinfo"], field + ".lineinfo");
    if (j.contains("debug"))
        o.deviceDebug = getBool(j["debug"], field + ".debug");
    if (j.contains("fast_math"))
        o.fastMath = getBool(j["fast_math"], field + ".fast_math");
    if (j.contains("tag_printf"))
        o.tagPrintf = getBool(j["tag_printf"], field + ".tag_printf");
    if (j.contains("extra"))
        o.extra = getStringList(j["extra"], field + ".extra");
    return o;
}

std::vector<std::pair<std::string, std::string>> readVariables(const Json& j)
{
    if (!j.is_array())
        fail("variables", std::string("expected an array of [name, expression] pairs, got ") + kindName(j));
    std::vector<std::pair<std::string, std::string>> vars;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string field = "variables[" + std::to_string(i) + "]";
        const Json& pair = j[i];
        if (!pair.is_array() || pair.size() != 2)
            fail(field, "expected a [name, expression] pair");
        vars.emplace_back(getString(pair[0], field + "[0]"), getExpression(pair[1], field + "[1]"));
    }
    return vars;
}

Initialiser readInit(const Json& j, const std::string& field)
{
    Initialiser init;
    if (j.is_string()) {
        // "zeros" is short for {"kind": "zeros"}.
        const std::string s = j.get<std::string>();
        const auto kind = parseInitialiserKind(s);
        if (!kind)
            fail(field,
                 "\"" + s
                     + "\" is not an initialiser kind (zeros, fill, arange, linspace, uniform, normal, "
                       "expression, file, copy)");
        init.kind = *kind;
        return init;
    }
    if (!j.is_object())
        fail(field, std::string("expected an object with \"kind\", got ") + kindName(j));
    if (!j.contains("kind"))
        fail(field + ".kind", "missing");
    const std::string kindText = getString(j["kind"], field + ".kind");
    const auto kind = parseInitialiserKind(kindText);
    if (!kind)
        fail(field + ".kind",
             "\"" + kindText
                 + "\" is not one of zeros, fill, arange, linspace, uniform, normal, "
                   "expression, file, copy");
    init.kind = *kind;
    const auto need = [&](const char* key) -> const Json& {
        if (!j.contains(key))
            fail(join(field, key), std::string("missing (needed by \"") + kindText + "\")");
        return j[key];
    };
    const auto has = [&](const char* key) { return j.contains(key); };
    using K = Initialiser::Kind;
    switch (init.kind) {
    case K::Zeros: requireObject(j, field, {"kind"}); break;
    case K::Fill:
        requireObject(j, field, {"kind", "value"});
        init.value = getExpression(need("value"), field + ".value");
        break;
    case K::Arange:
        requireObject(j, field, {"kind", "start", "step"});
        if (has("start"))
            init.start = getExpression(j["start"], field + ".start");
        if (has("step"))
            init.step = getExpression(j["step"], field + ".step");
        break;
    case K::Linspace:
        requireObject(j, field, {"kind", "start", "stop"});
        init.start = getExpression(need("start"), field + ".start");
        init.stop = getExpression(need("stop"), field + ".stop");
        break;
    case K::Uniform:
        requireObject(j, field, {"kind", "low", "high", "seed"});
        if (has("low"))
            init.low = getNumber(j["low"], field + ".low");
        if (has("high"))
            init.high = getNumber(j["high"], field + ".high");
        break;
    case K::Normal:
        requireObject(j, field, {"kind", "mean", "stddev", "seed"});
        if (has("mean"))
            init.mean = getNumber(j["mean"], field + ".mean");
        if (has("stddev"))
            init.stddev = getNumber(j["stddev"], field + ".stddev");
        break;
    case K::Expression:
        requireObject(j, field, {"kind", "expr"});
        init.expression = getExpression(need("expr"), field + ".expr");
        break;
    case K::File:
        requireObject(j, field, {"kind", "path"});
        init.file = getString(need("path"), field + ".path");
        break;
    case K::Copy:
        requireObject(j, field, {"kind", "from"});
        init.from = getString(need("from"), field + ".from");
        break;
    }
    if (has("seed")) {
        const long long seed = getInteger(j["seed"], field + ".seed");
        if (seed < 0)
            fail(field + ".seed", "must not be negative (" + std::to_string(seed) + ")");
        init.seed = static_cast<std::uint64_t>(seed);
    }
    return init;
}

BufferSpec readBuffer(const Json& j, const std::string& field)
{
    requireObject(j, field, {"name", "dtype", "count", "shape", "init", "direction", "plot"});
    BufferSpec b;
    if (!j.contains("name"))
        fail(field + ".name", "missing");
    b.name = getString(j["name"], field + ".name");
    if (!j.contains("dtype"))
        fail(field + ".dtype", "missing");
    b.dtype = getDType(j["dtype"], field + ".dtype");
    if (!j.contains("count"))
        fail(field + ".count", "missing");
    b.count = getExpression(j["count"], field + ".count");
    if (j.contains("shape")) {
        const Json& s = j["shape"];
        if (!s.is_array())
            fail(field + ".shape", std::string("expected an array of expressions, got ") + kindName(s));
        for (std::size_t d = 0; d < s.size(); ++d)
            b.shape.push_back(getExpression(s[d], field + ".shape[" + std::to_string(d) + "]"));
    }
    if (j.contains("init"))
        b.init = readInit(j["init"], field + ".init");
    if (j.contains("direction")) {
        const std::string d = getString(j["direction"], field + ".direction");
        const auto dir = parseDirection(d);
        if (!dir)
            fail(field + ".direction", "\"" + d + "\" is not one of in, out, inout");
        b.direction = *dir;
    }
    if (j.contains("plot"))
        b.plot = getBool(j["plot"], field + ".plot");
    return b;
}

LaunchSpecText readLaunch(const Json& j)
{
    requireObject(j, "launch", {"grid", "block", "shared_bytes"});
    LaunchSpecText l;
    if (!j.contains("grid"))
        fail("launch.grid", "missing");
    if (!j.contains("block"))
        fail("launch.block", "missing");
    l.grid = readDims(j["grid"], "launch.grid");
    l.block = readDims(j["block"], "launch.block");
    if (j.contains("shared_bytes"))
        l.sharedBytes = getExpression(j["shared_bytes"], "launch.shared_bytes");
    return l;
}

RunSettings readRun(const Json& j)
{
    requireObject(j, "run", {"warmup", "repeats", "printf_buffer_bytes", "time_limit_s", "graph", "l2_flush"});
    RunSettings r;
    const auto clampInt = [](long long v, const std::string& field) {
        if (v < 0 || v > 1000000)
            fail(field, std::to_string(v) + " is out of range (0..1000000)");
        return static_cast<int>(v);
    };
    if (j.contains("warmup"))
        r.warmup = clampInt(getInteger(j["warmup"], "run.warmup"), "run.warmup");
    if (j.contains("repeats"))
        r.repeats = clampInt(getInteger(j["repeats"], "run.repeats"), "run.repeats");
    if (j.contains("printf_buffer_bytes")) {
        const long long v = getInteger(j["printf_buffer_bytes"], "run.printf_buffer_bytes");
        if (v <= 0)
            fail("run.printf_buffer_bytes", "must be positive (" + std::to_string(v) + ")");
        r.printfBufferBytes = static_cast<std::size_t>(v);
    }
    if (j.contains("time_limit_s"))
        r.timeLimitSeconds = getNumber(j["time_limit_s"], "run.time_limit_s");
    if (j.contains("graph")) {
        if (!j["graph"].is_boolean())
            fail("run.graph", "must be true or false");
        r.graph = j["graph"].get<bool>();
    }
    if (j.contains("l2_flush")) {
        const Json& f = j["l2_flush"];
        if (f.is_boolean())
            r.l2Flush = f.get<bool>() ? L2Flush::On : L2Flush::Off;
        else if (f.is_string() && f.get<std::string>() == "auto")
            r.l2Flush = L2Flush::Auto;
        else
            fail("run.l2_flush", "must be true, false or \"auto\"");
    }
    return r;
}

// A __constant__ or __device__ variable: a buffer under another name, read-only unless it says otherwise.
BufferSpec readGlobal(const Json& j, const std::string& field)
{
    BufferSpec b = readBuffer(j, field);
    b.global = true;
    if (!j.contains("direction"))
        b.direction = Direction::In;
    return b;
}

// "args": "auto" of the launch steps, bound by name to the buffers and variables; a kernel
// the document does not list is left for the validator to name.
void bindStepArgs(const Document& doc, std::vector<StepSpec>& steps, const std::string& field)
{
    for (std::size_t i = 0; i < steps.size(); ++i) {
        StepSpec& s = steps[i];
        const std::string f = field + "[" + std::to_string(i) + "]";
        const bool listed = std::find(doc.kernels.begin(), doc.kernels.end(), s.kernel) != doc.kernels.end();
        if (s.kind == StepSpec::Kind::Launch && s.argsAuto && listed)
            s.args = bindArgsByName(doc, s.kernel, f + ".args (auto)");
        bindStepArgs(doc, s.steps, f + ".steps");
    }
}

std::string lineAndColumn(const std::string& text, std::size_t byte)
{
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

} // namespace

Document DocumentReader::parse(const std::string& text, const std::filesystem::path& path, Trust trust)
{
    // Walking a parsed value recurses (dump, the readers below): bound the depth first.
    if (jsonNestingDepth(text) > kMaxJsonDepth)
        throw Error(ErrorCategory::Document,
                    "the document is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::out_of_range& e) { // a number such as 1e400
        throw Error(ErrorCategory::Document, std::string("not a valid document: ") + e.what());
    } catch (const Json::parse_error& e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        const std::size_t colon = what.find(": ");
        const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
        throw Error(ErrorCategory::Document,
                    "not valid JSON at " + lineAndColumn(text, e.byte ? e.byte - 1 : 0) + ": " + detail);
    }
    requireObject(j, "",
                  {"format", "version", "title", "description", "source", "source_file", "kernel", "kernels", "options",
                   "variables", "buffers", "globals", "args", "launch", "steps", "run", "checks"});

    Document doc;
    doc.path = path;
    doc.trust = trust;
    if (!j.contains("format"))
        fail("format", "missing (a workbench document has \"format\": \"kernel-workbench\")");
    const std::string format = getString(j["format"], "format");
    if (format != "kernel-workbench")
        fail("format", "\"" + format + "\" is not \"kernel-workbench\"");
    if (!j.contains("version"))
        fail("version", "missing");
    const long long version = getInteger(j["version"], "version");
    if (version > kVersion)
        fail("version",
             std::to_string(version) + " is newer than this program reads (" + std::to_string(kVersion)
                 + "); update Kernel Workbench");
    if (version < 1)
        fail("version", std::to_string(version) + " is not a valid version");
    doc.version = static_cast<int>(version);
    if (j.contains("title"))
        doc.title = getString(j["title"], "title");
    if (j.contains("description"))
        doc.description = getString(j["description"], "description");

    const bool inlineSource = j.contains("source");
    const bool fileSource = j.contains("source_file");
    if (inlineSource && fileSource)
        fail("source", "give either \"source\" or \"source_file\", not both");
    if (!inlineSource && !fileSource)
        fail("source", "missing (give the kernel source inline as \"source\" or as \"source_file\")");
    if (inlineSource) {
        doc.source = getString(j["source"], "source");
    } else {
        doc.sourceFile = getString(j["source_file"], "source_file");
        if (doc.sourceFile.empty())
            fail("source_file", "is empty");
        std::filesystem::path file = std::filesystem::path(doc.sourceFile).is_absolute()
            ? std::filesystem::path(doc.sourceFile)
            : doc.baseDir() / doc.sourceFile;
        if (trust == Trust::Untrusted) {
            const auto r = ConfinedFolder(doc.baseDir()).resolveFile(doc.sourceFile);
            if (r.status == ConfinedFolder::Status::Outside)
                throw Error(ErrorCategory::Untrusted,
                            "source_file: \"" + doc.sourceFile + "\" " + ConfinedFolder::explain(r.status));
            if (r.status == ConfinedFolder::Status::NotRegular)
                fail("source_file", "\"" + doc.sourceFile + "\" " + ConfinedFolder::explain(r.status));
            if (r.status == ConfinedFolder::Status::Missing) // never looked up in the working folder
                fail("source_file",
                     "file \"" + doc.sourceFile + "\" not found "
                         + (doc.path.empty() ? "(an unsaved document has no folder to look in)"
                                             : "in the document's folder"));
            file = r.path;
        }
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec))
            fail("source_file", "file \"" + doc.sourceFile + "\" not found (looked for " + file.string() + ")");
        std::ifstream in(file, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        if (!in)
            fail("source_file", "cannot read " + file.string());
        doc.source = s.str();
    }

    const bool sequence = j.contains("steps");
    if (sequence) {
        if (doc.version < 2)
            fail("steps", "needs \"version\": 2 (a document of steps)");
        for (const char* single : {"kernel", "args", "launch"})
            if (j.contains(single))
                fail(single, "a document of steps names its kernels in \"kernels\" and launches them in \"steps\"");
        if (!j.contains("kernels"))
            fail("kernels", "missing (the kernels the steps launch)");
        doc.kernels = getStringList(j["kernels"], "kernels");
    } else {
        if (j.contains("kernels"))
            fail("kernels", "goes with \"steps\" (a document of several launches, version 2)");
        if (!j.contains("kernel"))
            fail("kernel", "missing");
        doc.kernel = getString(j["kernel"], "kernel");
    }
    if (j.contains("options"))
        doc.options = readOptions(j["options"], "options");
    if (j.contains("variables"))
        doc.variables = readVariables(j["variables"]);
    if (j.contains("buffers"))
        doc.buffers = readList<BufferSpec>(j["buffers"], "buffers", readBuffer);
    if (j.contains("globals"))
        for (BufferSpec& g : readList<BufferSpec>(j["globals"], "globals", readGlobal))
            doc.buffers.push_back(std::move(g));
    if (sequence) {
        doc.steps = readSteps(j["steps"], "steps");
        if (doc.steps.empty())
            fail("steps", "is empty (a document of steps needs at least one)");
        bindStepArgs(doc, doc.steps, "steps");
        if (j.contains("run"))
            doc.run = readRun(j["run"]);
        if (j.contains("checks"))
            doc.checks = readList<CheckSpec>(j["checks"], "checks", readCheck);
        return doc;
    }
    if (!j.contains("args"))
        fail("args", "missing (one entry per kernel parameter, or \"auto\")");
    if (j["args"].is_string()) {
        if (j["args"] != "auto")
            fail("args", "expected an array or \"auto\", got \"" + j["args"].get<std::string>() + "\"");
        doc.argsAuto = true;
        doc.args = bindArgsByName(doc);
    } else {
        doc.args = readList<ArgSpec>(j["args"], "args", readArg);
    }
    if (!j.contains("launch"))
        fail("launch", "missing");
    doc.launch = readLaunch(j["launch"]);
    if (j.contains("run"))
        doc.run = readRun(j["run"]);
    if (j.contains("checks"))
        doc.checks = readList<CheckSpec>(j["checks"], "checks", readCheck);
    return doc;
}

Document DocumentReader::readString(const std::string& json, const std::filesystem::path& path, Trust trust)
{
    Document doc = parse(json, path, trust);
    DocumentValidator::validate(doc);
    return doc;
}

Document DocumentReader::readFile(const std::filesystem::path& path, Trust trust)
{
    const HostBytes bytes = BinaryFile::readAll(path);
    return readString(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path, trust);
}

} // namespace kw
