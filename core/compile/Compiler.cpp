#include "compile/Compiler.hpp"
#include "compile/MissingTokenLocator.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/ContentHash.hpp"
#include "compile/DiagnosticParser.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/IncludeScanner.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/OptionAllowList.hpp"
#include "compile/PrintfTagger.hpp"
#include "compile/ProgramCache.hpp"
#include "compile/PtxEntryParser.hpp"
#include "compile/SignatureParser.hpp"
#include "compile/ToolkitIncludeDir.hpp"
#include "compile/UnbundledHeaderNote.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <chrono>
#include <set>

namespace kw {

namespace fs = std::filesystem;

namespace {

using Clock = SteadyClock;

// Destroys the NVRTC program on every path out.
class Program {
public:
    Program(const NvrtcLibrary& nv, const std::string& source, const std::string& name,
            const std::vector<InMemoryHeader>& ownHeaders)
        : nv_(nv)
    {
        std::vector<const char*> texts, names;
        for (const auto& h : BuiltinHeaders::all()) {
            texts.push_back(h.text.c_str());
            names.push_back(h.name.c_str());
        }
        for (const auto& h : ownHeaders) {
            texts.push_back(h.text.c_str());
            names.push_back(h.name.c_str());
        }
        nv_.check(nv_.createProgram(&prog_, source.c_str(), name.c_str(), static_cast<int>(texts.size()),
                                    texts.data(), names.data()),
                  "nvrtcCreateProgram");
    }
    ~Program()
    {
        if (prog_)
            nv_.destroyProgram(&prog_);
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    nvrtcProgram get() const { return prog_; }

private:
    const NvrtcLibrary& nv_;
    nvrtcProgram prog_ = nullptr;
};

struct Attempt {
    CompileResult result;
    bool nameMapFailed = false; // an error came from a name expression
};

Attempt runNvrtc(const NvrtcLibrary& nv, const TaggedSource& tagged, const std::string& sourceName,
                 const std::vector<InMemoryHeader>& headers, const std::vector<std::string>& args,
                 const std::vector<std::string>& names, bool wantCubin)
{
    Program prog(nv, tagged.text, sourceName, headers);
    for (const auto& n : names)
        nv.check(nv.addNameExpression(prog.get(), n.c_str()), "nvrtcAddNameExpression");
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    nvrtcResult rc = nv.compileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());

    Attempt at;
    CompileResult& r = at.result;
    std::size_t logSize = 0;
    nv.check(nv.getProgramLogSize(prog.get(), &logSize), "nvrtcGetProgramLogSize");
    r.log.assign(logSize, '\0');
    if (logSize > 0)
        nv.check(nv.getProgramLog(prog.get(), r.log.data()), "nvrtcGetProgramLog");
    while (!r.log.empty() && r.log.back() == '\0')
        r.log.pop_back();
    // NVRTC joins ptxas's report and its errors with a NUL between them.
    std::replace(r.log.begin(), r.log.end(), '\0', '\n');
    r.diagnostics = parseNvrtcLog(r.log);
    for (auto& d : r.diagnostics) {
        if (d.file == sourceName && d.column > 0)
            d.column = tagged.userColumn(d.line, d.column);
        if (d.file == "__nv_name_map")
            at.nameMapFailed = true;
        addUnbundledHeaderNote(d);
    }
    if (rc == NVRTC_ERROR_COMPILATION || rc == NVRTC_ERROR_INVALID_OPTION) {
        // A user-code or user-option error: a value, not an exception.
        if (r.diagnostics.empty() && !r.log.empty())
            r.diagnostics.push_back({sourceName, 0, 0, Severity::Error, r.log, {}, {}});
        return at;
    }
    nv.check(rc, "nvrtcCompileProgram");
    r.ok = true;

    std::size_t ptxSize = 0;
    nv.check(nv.getPTXSize(prog.get(), &ptxSize), "nvrtcGetPTXSize");
    r.ptx.assign(ptxSize, '\0');
    if (ptxSize > 0)
        nv.check(nv.getPTX(prog.get(), r.ptx.data()), "nvrtcGetPTX");
    while (!r.ptx.empty() && r.ptx.back() == '\0')
        r.ptx.pop_back();
    if (wantCubin) {
        std::size_t cubinSize = 0;
        nv.check(nv.getCUBINSize(prog.get(), &cubinSize), "nvrtcGetCUBINSize");
        r.cubin.resize(cubinSize);
        if (cubinSize > 0)
            nv.check(nv.getCUBIN(prog.get(), r.cubin.data()), "nvrtcGetCUBIN");
    }
    for (const auto& n : names) {
        const char* lowered = nullptr;
        nv.check(nv.getLoweredName(prog.get(), n.c_str(), &lowered), "nvrtcGetLoweredName");
        if (lowered)
            r.loweredNames[n] = lowered;
    }
    return at;
}

// Everything the compiled program depends on, verbatim; ProgramCache compares it
// whole, so only its hash needs to be short.
std::string cacheKey(const std::string& nvrtcVersion, const std::string& arch, const CompileRequest& req,
                     const TaggedSource& tagged, const std::vector<std::string>& args,
                     const std::vector<std::string>& names, const std::vector<IncludedFile>& includes)
{
    std::string k = "kwb program v1\nnvrtc " + nvrtcVersion + "\narch " + arch + "\nname " + req.sourceName
                    + "\nargs";
    for (const auto& a : args)
        k += ' ' + a + '\0';
    k += "\nnames";
    for (const auto& n : names)
        k += ' ' + n + '\0';
    // The built-in headers are part of this binary: their hash stands for them.
    static const std::string builtin = std::to_string(contentHash(BuiltinHeaders::fingerprint(), 1)) + "/"
                                       + std::to_string(contentHash(BuiltinHeaders::fingerprint(), 2));
    k += "\nbuiltin " + builtin;
    k += "\nsource " + std::to_string(tagged.text.size()) + '\n' + tagged.text;
    for (const auto& inc : includes) {
        k += "\ninclude " + inc.spelled + '\0' + (inc.path.empty() ? "<missing>" : inc.path.string()) + '\0'
             + std::to_string(inc.contents.size()) + '\n' + inc.contents;
    }
    return k;
}

} // namespace

Compiler::Compiler(std::shared_ptr<ProgramCache> cache) : cache_(std::move(cache)) {}

Compiler::~Compiler() = default;

std::string Compiler::nvrtcVersion() { return NvrtcLibrary::instance().version(); }

std::string Compiler::defaultVirtualArch()
{
    try {
        const auto& archs = NvrtcLibrary::instance().supportedArchs();
        if (!archs.empty())
            return "compute_" + std::to_string(*std::min_element(archs.begin(), archs.end()));
    } catch (const Error&) {
        // Without NVRTC nothing compiles anyway; keep the documented default.
    }
    return "compute_75";
}

std::string Compiler::realArchFor(int ccMajor, int ccMinor)
{
    if (ccMajor <= 0 || ccMinor < 0 || ccMinor > 9)
        return {};
    const int arch = ccMajor * 10 + ccMinor;
    try {
        const auto& archs = NvrtcLibrary::instance().supportedArchs();
        if (std::find(archs.begin(), archs.end(), arch) == archs.end())
            return {};
    } catch (const Error&) {
        return {};
    }
    return "sm_" + std::to_string(arch);
}

const std::vector<fs::path>& Compiler::installedIncludeDirs()
{
    // Looked up once per process: it sits on the path of every cache hit.
    static const std::vector<fs::path> dirs = [] {
        std::vector<fs::path> d;
        if (fs::path toolkit = toolkitIncludeDir(); !toolkit.empty()) {
            d.push_back(toolkit);
            std::error_code ec;
            if (fs::is_directory(toolkit / "cccl", ec))
                d.push_back(toolkit / "cccl");
        }
        return d;
    }();
    return dirs;
}

CompileResult Compiler::compile(const CompileRequest& request)
{
    auto t0 = Clock::now();
    const NvrtcLibrary& nv = NvrtcLibrary::instance();

    const bool trusted = request.trust == Trust::Trusted;
    if (!trusted)
        OptionAllowList::check(request.options);
    CompileOptions options = request.options;
    if (options.arch.empty())
        options.arch = defaultVirtualArch();
    // Quoted includes are found beside the source, then in its include folders.
    const ConfinedFolder folder(request.baseDir, [&] {
        auto readable = installedIncludeDirs();
        readable.insert(readable.end(), request.userIncludeDirs.begin(), request.userIncludeDirs.end());
        return readable;
    }());
    std::vector<fs::path> userDirs;
    if (!request.baseDir.empty())
        userDirs.push_back(trusted ? request.baseDir : folder.root());
    for (std::size_t i = 0; i < options.includeDirs.size(); ++i) {
        const fs::path p(options.includeDirs[i]);
        if (trusted) {
            userDirs.push_back(p.is_relative() && !request.baseDir.empty() ? request.baseDir / p : p);
            continue;
        }
        const auto r = folder.resolveFolder(p);
        if (r.status != ConfinedFolder::Status::Inside)
            throw Error(ErrorCategory::Untrusted, "options.include_dirs[" + std::to_string(i) + "]: \"" + p.string()
                                                      + "\" " + ConfinedFolder::explain(r.status));
        userDirs.push_back(r.path);
    }
    for (const auto& d : request.userIncludeDirs)
        userDirs.push_back(d);
    options.includeDirs.clear();
    const bool wantCubin = options.arch.rfind("sm_", 0) == 0;
    std::vector<std::string> args = options.toNvrtcArgs();
    // For a real architecture ptxas runs anyway; its report (registers, stack,
    // spills per kernel) costs nothing more and lands in the log.
    if (wantCubin)
        args.push_back("-Xptxas=-v");
    // An untrusted source gets its own headers from memory (IncludeGate), so NVRTC
    // searches nothing of the user's.
    if (trusted)
        for (const auto& d : userDirs)
            args.push_back("-I" + d.string());
    for (const auto& d : installedIncludeDirs())
        args.push_back("-I" + d.string());

    // Host code around the kernels (main, cudaMalloc, <iostream>) never reaches NVRTC.
    const DeviceSource device = HostCodeFilter::deviceOnly(request.source);
    TaggedSource tagged;
    if (options.tagPrintf)
        tagged = PrintfTagger::tag(device.text, request.sourceName);
    else
        tagged.text = device.text;
    std::vector<InMemoryHeader> ownHeaders;
    std::vector<IncludedFile> includes;
    if (trusted) {
        includes = scanIncludes(device.text, userDirs);
        for (const auto& inc : includes)
            if (inc.notRegular) {
                CompileResult refused;
                refused.arch = options.arch;
                Diagnostic d;
                d.file = request.sourceName;
                d.message = "#include \"" + inc.spelled + "\": not a regular file (a FIFO, device or folder is never read)";
                refused.diagnostics.push_back(d);
                refused.log = d.message + "\n";
                refused.compileMs = msSince(t0);
                return refused;
            }
    } else {
        std::vector<fs::path> searched(userDirs.begin() + (request.baseDir.empty() ? 0 : 1), userDirs.end());
        AdmittedIncludes admitted = IncludeGate(folder, searched, installedIncludeDirs()).admit(device.text, request.sourceName);
        ownHeaders = std::move(admitted.headers);
        includes = std::move(admitted.files);
        if (!admitted.missing.empty()) {
            CompileResult r;
            r.arch = options.arch;
            r.diagnostics = std::move(admitted.missing);
            r.kernels = parseKernelSignatures(request.source);
            r.compileMs = msSince(t0);
            return r;
        }
    }

    std::vector<std::string> names = request.nameExpressions;
    std::string key;
    if (cache_) {
        key = cacheKey(nv.version(), options.arch, request, tagged, args, names, includes);
        if (auto hit = cache_->find(key)) {
            hit->cacheHit = true;
            // Entries stored before the relocation existed get it here; it is idempotent.
            MissingTokenLocator::relocate(hit->diagnostics, request.source, request.sourceName);
            hit->compileMs = msSince(t0);
            return std::move(*hit);
        }
    }

    auto kernels = parseKernelSignatures(request.source);

    // Plain kernels get their lowered names too, so the runner can find them;
    // an overloaded name would be ambiguous and is left to explicit requests.
    std::vector<std::string> autoNames;
    {
        std::multiset<std::string> counts;
        for (const auto& k : kernels)
            counts.insert(k.name);
        for (const auto& k : kernels)
            if (k.templateParams.empty() && counts.count(k.name) == 1
                && std::find(names.begin(), names.end(), k.name) == names.end())
                autoNames.push_back(k.name);
    }

    std::vector<std::string> all = names;
    all.insert(all.end(), autoNames.begin(), autoNames.end());
    Attempt at = runNvrtc(nv, tagged, request.sourceName, ownHeaders, args, all, wantCubin);
    if (!at.result.ok && at.nameMapFailed && !autoNames.empty()) {
        // A kernel the scanner saw may be compiled out (#if 0): retry with the
        // requested names only, so that never turns into an error.
        at = runNvrtc(nv, tagged, request.sourceName, ownHeaders, args, names, wantCubin);
    }
    CompileResult r = std::move(at.result);
    MissingTokenLocator::relocate(r.diagnostics, request.source, request.sourceName);
    r.arch = options.arch;
    r.kernels = std::move(kernels);
    r.entries = parsePtxEntries(r.ptx);
    for (const HostCodeRange& h : device.removed)
        r.diagnostics.push_back(Diagnostic{request.sourceName, h.firstLine, 1, Severity::Note,
                                           h.what + " (lines " + std::to_string(h.firstLine) + "-"
                                               + std::to_string(h.lastLine) + ") is host code: not compiled",
                                           {}, {}});
    for (const auto& inc : includes)
        if (!inc.path.empty())
            r.includedFiles.push_back(inc.path.string());
    r.compileMs = msSince(t0);
    if (cache_)
        cache_->store(key, r);
    return r;
}

} // namespace kw
