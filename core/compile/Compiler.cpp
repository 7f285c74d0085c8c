#include "compile/Compiler.hpp"
#include "compile/MissingTokenLocator.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/CompileWorkerProcess.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/ContentHash.hpp"
#include "compile/DiagnosticParser.hpp"
#include "compile/FixedWidthTypes.hpp"
#include "compile/HeaderSplit.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/HostHeaderStandIns.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/IncludeScanner.hpp"
#include "compile/NvrtcHostRemoval.hpp"
#include "compile/NvrtcJob.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/OptionAllowList.hpp"
#include "compile/PchLog.hpp"
#include "compile/PrintfTagger.hpp"
#include "compile/ProgramCache.hpp"
#include "compile/PtxEntryParser.hpp"
#include "compile/SignatureParser.hpp"
#include "compile/SplitCompileBound.hpp"
#include "compile/ToolkitIncludeDir.hpp"
#include "compile/TranslationUnitKernels.hpp"
#include "compile/UnbundledHeaderNote.hpp"
#include "compile/WarmCompileWorker.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <algorithm>
#include <atomic>
#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <set>

namespace kw {

namespace fs = std::filesystem;

namespace {

using Clock = SteadyClock;

struct Attempt {
    CompileResult result;
    bool nameMapFailed = false; // an error came from a name expression
};

using JobRunner = std::function<CompileResult(const NvrtcJob&)>;

int currentProcessId()
{
#ifdef _WIN32
    return _getpid();
#else
    return int(getpid());
#endif
}

// NVRTC runs in the compile worker; its log is read here, against the tagged source.
Attempt runNvrtc(const JobRunner& worker, const NvrtcJob& job, const TaggedSource& tagged)
{
    Attempt at;
    CompileResult& r = at.result;
    r = worker(job);
    r.pch = PchLog::take(r.log);
    const std::vector<Diagnostic> failure = std::move(r.diagnostics); // a crash or time-out, already worded
    r.diagnostics = failure.empty() ? parseNvrtcLog(r.log) : failure;
    for (auto& d : r.diagnostics) {
        if (d.file == job.sourceName && d.column > 0)
            d.column = tagged.userColumn(d.line, d.column);
        if (d.file == "__nv_name_map")
            at.nameMapFailed = true;
        addUnbundledHeaderNote(d, Compiler::installedIncludeDirs());
    }
    if (!r.ok && r.diagnostics.empty() && !r.log.empty())
        r.diagnostics.push_back({job.sourceName, 0, 0, Severity::Error, r.log, {}, {}});
    return at;
}

// NVRTC's error for a name expression it could not look up names a file of its own
// (`__nv_name_map`) and quotes the expression: where the kernel's own errors are there
// it says nothing more, and alone it says which kernel, in the user's file.
void rewordNameMapErrors(std::vector<Diagnostic>& diagnostics, const std::string& sourceName)
{
    const auto fromNameMap = [](const Diagnostic& d) { return d.file == "__nv_name_map"; };
    const bool otherErrors = std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
        return d.severity == Severity::Error && !fromNameMap(d);
    });
    if (otherErrors) {
        diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(), fromNameMap), diagnostics.end());
        return;
    }
    for (Diagnostic& d : diagnostics) {
        if (!fromNameMap(d))
            continue;
        const std::size_t q = d.message.find("was: \"");
        std::string name = q == std::string::npos ? std::string() : d.message.substr(q + 6);
        name = name.substr(0, name.find('"'));
        name.erase(0, name.find_first_not_of(' '));
        d.file = sourceName;
        d.line = d.column = 0;
        d.message = "kernel " + name + " could not be compiled: NVRTC finds no __global__ function of that name"
            + " and signature";
    }
}

// NVRTC's "cannot open source file" for an include the gate found nowhere: the gate's
// words, which say where it looked (NVRTC may only say that it may not read the folder).
void rewordAbsentIncludes(std::vector<Diagnostic>& diagnostics, const std::vector<Diagnostic>& absent)
{
    for (Diagnostic& d : diagnostics) {
        if (d.message.find("cannot open source file") == std::string::npos)
            continue;
        for (const Diagnostic& a : absent) {
            const std::size_t q = a.message.find('"');
            const std::size_t e = q == std::string::npos ? q : a.message.find('"', q + 1);
            if (e != std::string::npos && d.message.find(a.message.substr(q, e - q + 1)) != std::string::npos) {
                d.message = a.message;
                if (d.file == a.file || d.line == 0) {
                    d.line = a.line;
                    d.column = a.column;
                }
                break;
            }
        }
    }
}

// Everything the compiled program depends on, verbatim; ProgramCache compares it
// whole, so only its hash needs to be short. The version goes up when what the compile
// does after the lookup changes (NVRTC's verdicts acted on, FixedWidthTypes).
std::string cacheKey(const std::string& nvrtcVersion, const std::string& arch, const CompileRequest& req,
                     const TaggedSource& tagged, const std::vector<std::string>& args,
                     const std::vector<std::string>& names, const std::vector<IncludedFile>& includes)
{
    std::string k = "kwb program v5\nnvrtc " + nvrtcVersion + "\narch " + arch + "\nname " + req.sourceName + "\nargs";
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

// The workers kept up for a compiler that lives long (keepWorkerWarm): one per kind of
// job, each used by one compile at a time.
struct Compiler::WarmWorkers {
    std::mutex busy;
    fs::path root; // this compiler's folder of precompiled headers
    std::unique_ptr<WarmCompileWorker> confined, trusted;
};

Compiler::Compiler(std::shared_ptr<ProgramCache> cache)
    : cache_(std::move(cache))
    , worker_(CompileWorkerProcess::besideThisProgram())
{
}

void Compiler::setWorker(std::filesystem::path worker) { worker_ = std::move(worker); }

void Compiler::keepWorkerWarm(bool warm)
{
    if (!warm) {
        warm_.reset();
        return;
    }
    // KWB_PCH=0 turns it off: every compile in a worker of its own, as a one-shot command does.
    const char* pch = std::getenv("KWB_PCH");
    if (warm_ || !CompilerSandbox::available() || (pch && std::string(pch) == "0"))
        return;
    static std::atomic<int> made{0};
    const fs::path parent = userCacheDir() / "pch";
    WarmCompileWorker::removeAbandonedFolders(parent);
    warm_ = std::make_unique<WarmWorkers>();
    warm_->root = parent / (std::to_string(currentProcessId()) + "-" + std::to_string(made++));
}

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
    if (!trusted) {
        OptionAllowList::check(request.options);
        if (!CompilerSandbox::available())
            throw Error(ErrorCategory::Untrusted,
                        CompilerSandbox::unavailableReason() + ": an untrusted document is not compiled here");
    }
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
            throw Error(ErrorCategory::Untrusted,
                        "options.include_dirs[" + std::to_string(i) + "]: \"" + p.string() + "\" "
                            + ConfinedFolder::explain(r.status));
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
    args.push_back(std::string("--pre-include=") + BuiltinHeaders::kNvccEnvironment);
    const std::vector<Diagnostic> boundNotes
        = SplitCompileBound::apply(args, SplitCompileBound::machineCores(), request.sourceName);
    // An untrusted source gets its own headers from memory (IncludeGate), so NVRTC
    // searches nothing of the user's.
    if (trusted)
        for (const auto& d : userDirs)
            args.push_back("-I" + d.string());
    for (const auto& d : installedIncludeDirs())
        args.push_back("-I" + d.string());

    // Host code around the kernels (main, cudaMalloc, <iostream>) never reaches NVRTC.
    DeviceSource device = HostCodeFilter::deviceOnly(request.source);
    const auto tag = [&] {
        TaggedSource t;
        if (options.tagPrintf)
            t = PrintfTagger::tag(device.text, request.sourceName);
        else
            t.text = device.text;
        return t;
    };
    TaggedSource tagged = tag();
    std::vector<InMemoryHeader> ownHeaders;
    std::vector<IncludedFile> includes;
    std::vector<Diagnostic> absent; // includes the gate found nowhere, reworded if NVRTC reaches them
    if (trusted) {
        includes = scanIncludes(device.text, userDirs);
        for (const auto& inc : includes)
            if (inc.notRegular) {
                CompileResult refused;
                refused.arch = options.arch;
                Diagnostic d;
                d.file = inc.includer.empty() ? request.sourceName : inc.includer.string();
                d.line = inc.line;
                d.message
                    = "#include \"" + inc.spelled + "\": not a regular file (a FIFO, device or folder is never read)";
                refused.diagnostics.push_back(d);
                refused.log = d.message + "\n";
                refused.compileMs = msSince(t0);
                return refused;
            }
    } else {
        std::vector<fs::path> searched(userDirs.begin() + (request.baseDir.empty() ? 0 : 1), userDirs.end());
        AdmittedIncludes admitted
            = IncludeGate(folder, searched, installedIncludeDirs()).admit(device.text, request.sourceName);
        ownHeaders = std::move(admitted.headers);
        includes = std::move(admitted.files);
        absent = std::move(admitted.absent);
        if (!admitted.missing.empty()) {
            CompileResult r;
            r.arch = options.arch;
            r.diagnostics = std::move(admitted.missing);
            r.kernels = parseKernelSignatures(request.source);
            r.compileMs = msSince(t0);
            return r;
        }
    }

    // Host headers found nowhere the device compile looks: empty stand-ins, each with a note.
    std::vector<fs::path> lookedIn = userDirs;
    for (const auto& d : installedIncludeDirs())
        lookedIn.push_back(d);
    HostHeaderStandIns standIns = HostHeaderStandIns::find(device.text, request.sourceName, includes, lookedIn);
    for (const InMemoryHeader& h : standIns.headers)
        if (std::none_of(ownHeaders.begin(), ownHeaders.end(),
                         [&](const InMemoryHeader& o) { return o.name == h.name; })) {
            ownHeaders.push_back(h);
            includes.push_back(
                {h.name, {}, h.text, false, {}}); // in the cache key: a header that appears later recompiles
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

    auto kernels = translationUnitKernels(request.source, includes, request.baseDir);

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
    NvrtcJob job;
    job.source = tagged.text;
    job.sourceName = request.sourceName;
    job.headers = std::move(ownHeaders);
    HeaderSplit headers = trusted ? HeaderSplit(includes, job.headers) : HeaderSplit(job.headers);
    job.args = args;
    job.names = all;
    job.wantCubin = wantCubin;
    job.confined = !trusted;
    job.timeLimit = request.timeLimit;
    // A warm worker when this compiler keeps one and it is free; a worker of one job else.
    std::unique_lock<std::mutex> warmLock;
    WarmCompileWorker* warm = nullptr;
    if (warm_ && nv.hasPch()) {
        warmLock = std::unique_lock<std::mutex>(warm_->busy, std::try_to_lock);
        if (warmLock) {
            auto& w = job.confined ? warm_->confined : warm_->trusted;
            if (!w)
                w = std::make_unique<WarmCompileWorker>(worker_, job.confined,
                                                        warm_->root / (job.confined ? "confined" : "trusted"));
            warm = w.get();
        }
    }
    // What a precompiled header depends on besides the source: taken at each run, as the
    // passes below may change the headers.
    const auto pchKey = [&](const NvrtcJob& j) {
        std::string key;
        for (const auto& a : j.args)
            key += "arg " + a + '\0';
        for (const auto& h : j.headers)
            key += "header " + h.name + '\0' + std::to_string(h.text.size()) + '\n' + h.text;
        for (const auto& inc : includes)
            key += "include " + inc.spelled + '\0' + inc.path.string() + '\0' + std::to_string(inc.contents.size())
                + '\n' + inc.contents;
        return key;
    };
    const JobRunner worker
        = [&](const NvrtcJob& j) { return warm ? warm->run(j, pchKey(j)) : CompileWorkerProcess(worker_).run(j); };
    Attempt at = runNvrtc(worker, job, tagged);
    std::vector<Diagnostic> splitNotes;
    if (at.result.crashed && SplitCompileBound::remove(job.args)) {
        // NVRTC's threads of --split-compile crash it now and then inside the worker's
        // walls; the same program in one thread does not: compile it so, and say so.
        at = runNvrtc(worker, job, tagged);
        splitNotes.push_back({request.sourceName,
                              0,
                              0,
                              Severity::Note,
                              "NVRTC crashed with --split-compile; compiled in one thread instead",
                              {},
                              {}});
    }
    if (!at.result.ok && at.nameMapFailed && !autoNames.empty()) {
        // A kernel the scanner saw may be compiled out (#if 0): retry with the
        // requested names only, so that never turns into an error.
        job.names = names;
        at = runNvrtc(worker, job, tagged);
    }
    // What the filter kept and NVRTC calls host code goes too, a few passes at most; a
    // fixed-width type a left-out host header brought comes back first (FixedWidthTypes).
    std::optional<Diagnostic> stdintNote;
    for (int pass = 0; pass < 4 && !at.result.ok; ++pass) {
        if (!stdintNote) {
            std::vector<int> blanked, standInLines;
            for (const HostCodeRange& h : device.removed)
                if (h.what.starts_with("#include "))
                    blanked.push_back(h.firstLine);
            for (const Diagnostic& n : standIns.notes)
                if (n.file == request.sourceName)
                    standInLines.push_back(n.line);
            stdintNote = FixedWidthTypes::includeInPlace(device.text, request.sourceName, at.result.diagnostics,
                                                         blanked, standInLines);
            if (stdintNote) {
                tagged = tag();
                job.source = tagged.text;
                at = runNvrtc(worker, job, tagged);
                continue;
            }
        }
        const bool inSource
            = NvrtcHostRemoval::apply(device.text, request.sourceName, at.result.diagnostics, device.removed);
        const bool inHeaders = headers.removeNamed(at.result.diagnostics);
        if (!inSource && !inHeaders)
            break;
        tagged = tag();
        job.source = tagged.text;
        at = runNvrtc(worker, job, tagged);
    }
    CompileResult r = std::move(at.result);
    rewordNameMapErrors(r.diagnostics, request.sourceName);
    headers.nameFiles(r.diagnostics);
    rewordAbsentIncludes(r.diagnostics, absent);
    MissingTokenLocator::relocate(r.diagnostics, request.source, request.sourceName);
    r.arch = options.arch;
    r.kernels = std::move(kernels);
    r.entries = parsePtxEntries(r.ptx);
    r.diagnostics.insert(r.diagnostics.end(), boundNotes.begin(), boundNotes.end());
    r.diagnostics.insert(r.diagnostics.end(), splitNotes.begin(), splitNotes.end());
    r.diagnostics.insert(r.diagnostics.end(), standIns.notes.begin(), standIns.notes.end());
    if (stdintNote)
        r.diagnostics.push_back(*stdintNote);
    const std::vector<Diagnostic> headerNotes = headers.notes();
    r.diagnostics.insert(r.diagnostics.end(), headerNotes.begin(), headerNotes.end());
    r.hostCode = device.removed;
    for (const HostCodeRange& h : device.removed)
        r.diagnostics.push_back(Diagnostic{request.sourceName,
                                           h.firstLine,
                                           1,
                                           Severity::Note,
                                           h.what + " (lines " + std::to_string(h.firstLine) + "-"
                                               + std::to_string(h.lastLine) + ") is host code: not compiled",
                                           {},
                                           {}});
    for (const auto& inc : includes)
        if (!inc.path.empty())
            r.includedFiles.push_back(inc.path.string());
    r.compileMs = msSince(t0);
    if (cache_)
        cache_->store(key, r);
    return r;
}

} // namespace kw
