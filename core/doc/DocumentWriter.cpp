#include "doc/DocumentWriter.hpp"

#include "doc/DocumentReader.hpp"
#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <cstdlib>
#include <fstream>

namespace kw {

namespace {

using Json = nlohmann::ordered_json;

// An expression that is just a number is written as a JSON number.
Json expression(const std::string& text)
{
    if (!text.empty()) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && numberText(v) == text) {
            if (v == static_cast<double>(static_cast<long long>(v)))
                return static_cast<long long>(v);
            return v;
        }
    }
    return text;
}

Json dims(const std::vector<std::string>& d)
{
    // Trailing 1s are implied.
    std::size_t n = d.size();
    while (n > 1 && d[n - 1] == "1")
        --n;
    Json a = Json::array();
    for (std::size_t i = 0; i < n; ++i)
        a.push_back(expression(d[i]));
    return a;
}

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
    case K::Fill: j["value"] = expression(i.value); break;
    case K::Arange:
        j["start"] = expression(i.start);
        j["step"] = expression(i.step);
        break;
    case K::Linspace:
        j["start"] = expression(i.start);
        j["stop"] = expression(i.stop);
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

} // namespace

Json DocumentWriter::toJson(const Document& doc)
{
    Json j = Json::object();
    j["format"] = "kernel-workbench";
    j["version"] = DocumentReader::kVersion;
    if (!doc.title.empty())
        j["title"] = doc.title;
    if (!doc.description.empty())
        j["description"] = doc.description;
    if (!doc.sourceFile.empty())
        j["source_file"] = doc.sourceFile;
    else
        j["source"] = doc.source;
    j["kernel"] = doc.kernel;
    const Json o = options(doc.options);
    if (!o.empty())
        j["options"] = o;

    Json vars = Json::array();
    for (const auto& [name, value] : doc.variables)
        vars.push_back(Json::array({name, expression(value)}));
    j["variables"] = vars;

    Json buffers = Json::array(), globals = Json::array();
    for (const BufferSpec& b : doc.buffers) {
        Json jb = Json::object();
        jb["name"] = b.name;
        jb["dtype"] = kw::toString(b.dtype);
        jb["count"] = expression(b.count);
        if (!b.shape.empty()) {
            Json s = Json::array();
            for (const auto& d : b.shape)
                s.push_back(expression(d));
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

    Json args = Json::array();
    for (const ArgSpec& a : doc.args) {
        Json ja = Json::object();
        if (!a.name.empty())
            ja["name"] = a.name;
        if (a.isBuffer()) {
            ja["buffer"] = a.buffer;
            if (!a.offset.empty())
                ja["offset"] = expression(a.offset);
        } else {
            ja["type"] = kw::toString(a.type);
            ja["value"] = expression(a.value);
        }
        args.push_back(ja);
    }
    if (doc.argsAuto)
        j["args"] = "auto";
    else
        j["args"] = args;

    Json launch = Json::object();
    launch["grid"] = dims(doc.launch.grid);
    launch["block"] = dims(doc.launch.block);
    launch["shared_bytes"] = expression(doc.launch.sharedBytes);
    j["launch"] = launch;

    Json run = Json::object();
    run["warmup"] = doc.run.warmup;
    run["repeats"] = doc.run.repeats;
    run["printf_buffer_bytes"] = doc.run.printfBufferBytes;
    run["time_limit_s"] = doc.run.timeLimitSeconds;
    j["run"] = run;

    if (!doc.checks.empty()) {
        Json checks = Json::array();
        for (const CheckSpec& c : doc.checks) {
            Json jc = Json::object();
            jc["buffer"] = c.buffer;
            if (!c.aggregate.empty())
                jc["aggregate"] = c.aggregate;
            if (!c.of.empty())
                jc["of"] = expression(c.of);
            jc["expect"] = expression(c.expect);
            jc["abs_tol"] = c.absTol;
            jc["rel_tol"] = c.relTol;
            checks.push_back(jc);
        }
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
