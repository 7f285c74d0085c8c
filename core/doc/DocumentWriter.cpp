#include "doc/DocumentWriter.hpp"

#include "doc/DocumentFields.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <fstream>

namespace kw {

using namespace fields;

namespace {

Json options(const CompileOptions& o)
{
    const CompileOptions defaults;
    Json j = Json::object();
    if (!o.defines.empty()) {
        Json d = Json::object();
        for (const auto& [name, value] : o.defines)
            d[name] = value;
        j["defines"] = d;
    }
    if (!o.includeDirs.empty())
        j["include_dirs"] = o.includeDirs;
    if (o.std != defaults.std)
        j["std"] = o.std;
    if (o.arch != defaults.arch)
        j["arch"] = o.arch;
    if (o.lineInfo != defaults.lineInfo)
        j["lineinfo"] = o.lineInfo;
    if (o.deviceDebug != defaults.deviceDebug)
        j["debug"] = o.deviceDebug;
    if (o.fastMath != defaults.fastMath)
        j["fast_math"] = o.fastMath;
    if (o.tagPrintf != defaults.tagPrintf)
        j["tag_printf"] = o.tagPrintf;
    if (!o.extra.empty())
        j["extra"] = o.extra;
    return j;
}

Json init(const Initialiser& i)
{
    using K = Initialiser::Kind;
    Json j = Json::object();
    j["kind"] = toString(i.kind);
    switch (i.kind) {
    case K::Zeros: break;
    case K::Fill: j["value"] = expressionJson(i.value); break;
    case K::Arange:
        j["start"] = expressionJson(i.start);
        j["step"] = expressionJson(i.step);
        break;
    case K::Linspace:
        j["start"] = expressionJson(i.start);
        j["stop"] = expressionJson(i.stop);
        break;
    case K::Uniform:
        j["low"] = i.low;
        j["high"] = i.high;
        j["seed"] = i.seed;
        break;
    case K::Normal:
        j["mean"] = i.mean;
        j["stddev"] = i.stddev;
        j["seed"] = i.seed;
        break;
    case K::Expression: j["expr"] = i.expression; break;
    case K::File: j["path"] = i.file; break;
    case K::Copy: j["from"] = i.from; break;
    }
    return j;
}

Json stepJson(const StepSpec& s)
{
    using K = StepSpec::Kind;
    Json j = Json::object();
    const auto optional = [&](const char* key, const std::string& text) {
        if (!text.empty())
            j[key] = expressionJson(text);
    };
    switch (s.kind) {
    case K::Launch: j["launch"] = s.kernel; break;
    case K::Copy: j["copy"] = s.from; break;
    case K::Fill: j["fill"] = s.to; break;
    case K::Swap: j["swap"] = Json::array({s.from, s.to}); break;
    case K::Repeat: j["repeat"] = expressionJson(s.times); break;
    case K::RepeatUntil: j["repeat_until"] = expressionJson(s.until); break;
    }
    if (!s.name.empty())
        j["name"] = s.name;
    switch (s.kind) {
    case K::Launch: {
        j["grid"] = dimsJson(s.launch.grid);
        j["block"] = dimsJson(s.launch.block);
        if (s.launch.sharedBytes != "0")
            j["shared_bytes"] = expressionJson(s.launch.sharedBytes);
        Json args = Json::array();
        for (const ArgSpec& a : s.args)
            args.push_back(argJson(a));
        j["args"] = s.argsAuto ? Json("auto") : args;
        break;
    }
    case K::Copy:
        j["to"] = s.to;
        optional("count", s.count);
        optional("from_offset", s.fromOffset);
        optional("to_offset", s.toOffset);
        break;
    case K::Fill:
        j["value"] = expressionJson(s.value);
        optional("offset", s.toOffset);
        optional("count", s.count);
        break;
    case K::Swap: break;
    case K::Repeat:
    case K::RepeatUntil: {
        if (s.kind == K::RepeatUntil)
            j["limit"] = expressionJson(s.limit);
        if (!s.index.empty())
            j["index"] = s.index;
        Json inner = Json::array();
        for (const StepSpec& t : s.steps)
            inner.push_back(stepJson(t));
        j["steps"] = inner;
        break;
    }
    }
    if (!s.checks.empty()) {
        Json checks = Json::array();
        for (const CheckSpec& c : s.checks)
            checks.push_back(checkJson(c));
        j["checks"] = checks;
    }
    return j;
}

} // namespace

Json DocumentWriter::toJson(const Document& doc)
{
    Json j = Json::object();
    j["format"] = "kernel-workbench";
    // Written in the version it came in, unless it has steps, which need version 2.
    j["version"] = doc.isSequence() ? 2 : std::clamp(doc.version, 1, DocumentReader::kVersion);
    if (!doc.title.empty())
        j["title"] = doc.title;
    if (!doc.description.empty())
        j["description"] = doc.description;
    if (!doc.sourceFile.empty())
        j["source_file"] = doc.sourceFile;
    else
        j["source"] = doc.source;
    if (doc.isSequence())
        j["kernels"] = doc.kernels;
    else
        j["kernel"] = doc.kernel;
    const Json o = options(doc.options);
    if (!o.empty())
        j["options"] = o;

    Json vars = Json::array();
    for (const auto& [name, value] : doc.variables)
        vars.push_back(Json::array({name, expressionJson(value)}));
    j["variables"] = vars;

    Json buffers = Json::array(), globals = Json::array();
    for (const BufferSpec& b : doc.buffers) {
        Json jb = Json::object();
        jb["name"] = b.name;
        jb["dtype"] = kw::toString(b.dtype);
        jb["count"] = expressionJson(b.count);
        if (!b.shape.empty()) {
            Json s = Json::array();
            for (const auto& d : b.shape)
                s.push_back(expressionJson(d));
            jb["shape"] = s;
        }
        jb["init"] = init(b.init);
        jb["direction"] = kw::toString(b.direction);
        if (!b.plot)
            jb["plot"] = false;
        (b.global ? globals : buffers).push_back(jb);
    }
    j["buffers"] = buffers;
    if (!globals.empty())
        j["globals"] = globals;

    if (doc.isSequence()) {
        Json steps = Json::array();
        for (const StepSpec& step : doc.steps)
            steps.push_back(stepJson(step));
        j["steps"] = steps;
    } else {
        Json args = Json::array();
        for (const ArgSpec& a : doc.args)
            args.push_back(argJson(a));
        j["args"] = doc.argsAuto ? Json("auto") : args;

        Json launch = Json::object();
        launch["grid"] = dimsJson(doc.launch.grid);
        launch["block"] = dimsJson(doc.launch.block);
        launch["shared_bytes"] = expressionJson(doc.launch.sharedBytes);
        j["launch"] = launch;
    }

    Json run = Json::object();
    run["warmup"] = doc.run.warmup;
    run["repeats"] = doc.run.repeats;
    run["printf_buffer_bytes"] = doc.run.printfBufferBytes;
    run["time_limit_s"] = doc.run.timeLimitSeconds;
    if (!doc.run.graph) // written only when off, so documents that never set it read as before
        run["graph"] = false;
    if (doc.run.l2Flush != L2Flush::Auto) // likewise
        run["l2_flush"] = doc.run.l2Flush == L2Flush::On;
    j["run"] = run;

    if (!doc.checks.empty()) {
        Json checks = Json::array();
        for (const CheckSpec& c : doc.checks)
            checks.push_back(checkJson(c));
        j["checks"] = checks;
    }
    return j;
}

std::string DocumentWriter::toString(const Document& doc) { return toJson(doc).dump(2) + "\n"; }

void DocumentWriter::writeFile(const Document& doc, const std::filesystem::path& path)
{
    const std::string text = toString(doc);
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw Error(ErrorCategory::Io, tmp.string() + ": cannot create");
        out << text;
        if (!out.flush())
            throw Error(ErrorCategory::Io, tmp.string() + ": write failed");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw Error(ErrorCategory::Io, path.string() + ": cannot replace (" + ec.message() + ")");
    }
}

} // namespace kw
