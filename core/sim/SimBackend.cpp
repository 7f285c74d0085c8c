#include "sim/SimBackend.hpp"

#include "sim/LaunchMemoryBudget.hpp"

#include "launch/LaunchLimits.hpp"
#include "launch/TimingStats.hpp"
#include "sim/BlockRunner.hpp"
#include "sim/LaunchObservers.hpp"
#include "sim/LaunchState.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/PtxParser.hpp"
#include "sim/SimChecks.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"
#include "util/SystemMemory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <memory>
#include <numeric>
#include <optional>
#include <thread>

namespace kw {

using namespace sim;

namespace {

using Clock = SteadyClock;

// A limit of 0 or less means none.
Clock::time_point deadlineAfter(double seconds)
{
    if (!(seconds > 0))
        return Clock::time_point::max();
    return Clock::now()
        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(seconds, 1e7)));
}

// One execution of the grid over the worker threads.
struct GridRun {
    double ms = 0;
    std::string printf;
    std::uint64_t instructions = 0;
    std::vector<std::unique_ptr<ProfileCollector>> profiles; // per worker, when profiled
};

// For each module variable, the buffer that fills it (null for none); the sizes must agree.
std::vector<BufferArg*> bindGlobals(const Module& mod, std::vector<BufferArg>& buffers)
{
    std::vector<BufferArg*> bound(mod.globals.size(), nullptr);
    for (auto& b : buffers) {
        if (b.global.empty())
            continue;
        std::size_t gi = 0;
        while (gi < mod.globals.size() && (mod.globals[gi].name != b.global || mod.globals[gi].space == Space::Shared))
            ++gi;
        if (gi == mod.globals.size()) {
            std::string names;
            for (const auto& g : mod.globals)
                if (g.space == Space::Global || g.space == Space::Const)
                    names += (names.empty() ? "" : ", ") + g.name;
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the module has no __constant__ or __device__ variable of that name "
                                    "(it has: {})",
                                    b.global, names.empty() ? "none" : names));
        }
        if (mod.globals[gi].size != b.data.byteSize())
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the variable is {} bytes but the document gives {} bytes", b.global,
                                    mod.globals[gi].size, b.data.byteSize()));
        bound[gi] = &b;
    }
    return bound;
}

GridRun runGrid(LaunchState& L, unsigned threads)
{
    const std::uint64_t blocks = L.grid.volume();
    threads = unsigned(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, blocks)));
    std::atomic<std::uint64_t> nextBlock{0};
    std::vector<std::vector<std::pair<std::uint64_t, std::string>>> outputs(threads);
    std::vector<std::uint64_t> counts(threads, 0);
    std::vector<std::unique_ptr<ProfileCollector>> profiles(threads);
    std::mutex errorMutex;
    std::exception_ptr error;
    const auto t0 = Clock::now();
    auto worker = [&](unsigned id) {
        try {
            BlockRunner runner(L);
            LaunchObservers observers(L);
            observers.attachTo(runner);
            // Blocks are handed out in small chunks so cores stay busy to the end.
            const std::uint64_t chunk = std::max<std::uint64_t>(1, blocks / (std::uint64_t(threads) * 64));
            while (!L.stop.load(std::memory_order_relaxed)) {
                const std::uint64_t begin = nextBlock.fetch_add(chunk);
                if (begin >= blocks)
                    break;
                const std::uint64_t end = std::min(blocks, begin + chunk);
                std::uint64_t b = begin;
                bool late = false;
                // Many short blocks never use up a warp's time slice: check the limit per block too.
                for (; b < end && !late; ++b)
                    late = !runner.run(b) || Clock::now() > L.deadline;
                if (!L.stop.load(std::memory_order_relaxed) && Clock::now() > L.deadline) {
                    Fault f;
                    f.kind = FaultKind::Timeout;
                    f.message = fmt::format("the kernel ran longer than the time limit of {} s and was stopped "
                                            "({} of {} blocks finished)",
                                            L.timeLimitSeconds, b, blocks);
                    L.recordFault(std::move(f));
                }
            }
            outputs[id] = std::move(runner.printfOutput());
            counts[id] = runner.instructions();
            profiles[id] = observers.takeProfile();
        } catch (...) {
            std::lock_guard lock(errorMutex);
            error = std::current_exception();
            L.stop = true;
        }
    };
    if (threads == 1) {
        worker(0);
    } else {
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i)
            pool.emplace_back(worker, i);
        for (auto& t : pool)
            t.join();
    }
    GridRun r;
    r.ms = msSince(t0);
    if (error)
        std::rethrow_exception(error);
    // Device printf order between blocks is unspecified; block order keeps runs reproducible.
    std::vector<std::pair<std::uint64_t, std::string>> all;
    for (auto& o : outputs)
        for (auto& e : o)
            all.push_back(std::move(e));
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& e : all)
        r.printf += e.second;
    r.instructions = std::accumulate(counts.begin(), counts.end(), std::uint64_t(0));
    r.profiles = std::move(profiles);
    return r;
}

// The capture request against the module's files: an empty file is the kernel's main
// file; otherwise the .file whose path is the name or ends in "/name".
std::optional<CaptureTarget> resolveCapture(const Module& mod, const Function& fn, const AccessCaptureRequest& req,
                                            std::vector<std::string>& warnings)
{
    CaptureTarget t;
    t.line = req.line > 0 ? std::uint32_t(req.line) : 0;
    t.block = req.block;
    t.warp = req.warp;
    t.maxSamples = req.maxSamples;
    if (req.file.empty()) {
        t.file = mainFile(fn);
        return t;
    }
    for (std::size_t i = 0; i < mod.files.size(); ++i) {
        const std::string& f = mod.files[i];
        if (f == req.file
            || (f.size() > req.file.size() && f.ends_with(req.file) && f[f.size() - req.file.size() - 1] == '/')) {
            t.file = std::uint16_t(i);
            return t;
        }
    }
    warnings.push_back(fmt::format("sim: profile capture: the module has no source file '{}'", req.file));
    return std::nullopt;
}

} // namespace

SimBackend::SimBackend() = default;
SimBackend::~SimBackend() = default;

unsigned SimBackend::threadCount() const
{
    if (threads_)
        return threads_;
    return std::max(1u, std::thread::hardware_concurrency());
}

DeviceInfo SimBackend::device() const
{
    DeviceInfo d;
    d.id = "sim";
    d.name = fmt::format("CPU simulator ({} threads)", threadCount());
    d.ccMajor = 7;
    d.ccMinor = 5;
    // Buffers live in host memory; 227 KiB of shared memory per block as on an H100/H200 with opt-in.
    d.totalMemory = physicalMemoryBytes();
    d.limits.sharedPerBlockOptin = 227 * 1024;
    d.limits.multiprocessors = int(threadCount());
    return d;
}

std::shared_ptr<const Module> SimBackend::module(const std::string& ptx, double& parseMs)
{
    std::lock_guard lock(cacheMutex_);
    const auto t0 = Clock::now();
    if (!cachedModule_ || cachedPtx_ != ptx) {
        cachedModule_ = std::make_shared<const Module>(parsePtx(ptx));
        cachedPtx_ = ptx;
    }
    parseMs = msSince(t0);
    return cachedModule_;
}

LaunchReport SimBackend::launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                const std::vector<LaunchArg>& args, const LaunchConfig& config)
{
    LaunchReport report;
    double parseMs = 0;
    auto mod = module(kernel.ptx, parseMs);
    report.timings.moduleLoadMs = parseMs;

    const std::string entry = kernel.loweredName.empty() ? kernel.name : kernel.loweredName;
    const Function* fn = mod->findFunction(entry);
    if (!fn || !fn->isEntry)
        throw Error(ErrorCategory::Simulator, fmt::format("kernel entry '{}' not found in the PTX module", entry));
    refuseViolations(kernel.name, checkLaunchLimits(config, device().limits, {0, 0, mod->staticShared}));
    // Instructions the simulator cannot run fault only when reached; say so up front.
    for (std::size_t i = 0; i < fn->unsupported.size(); ++i)
        if (!fn->unsupported[i].empty())
            report.warnings.push_back(fmt::format("sim: line {}: `{}` is not supported by the simulator ({}); the "
                                                  "kernel faults if it reaches it",
                                                  fn->code[i].line, fn->text[i], fn->unsupported[i]));

    // Everything the launch will allocate, before any of it is.
    const std::uint32_t sharedSize
        = config.sharedBytes ? mod->dynamicSharedOffset + config.sharedBytes : mod->staticShared;
    LaunchMemoryBudget::check(
        LaunchMemoryBudget::of(*mod, *fn, config.block, sharedSize, config.printfBufferBytes, threadCount()),
        LaunchMemoryBudget::defaultLimit());
    LaunchState L;
    L.mod = mod.get();
    L.fn = fn;
    L.grid = config.grid;
    L.block = config.block;
    L.dynShared = config.sharedBytes;
    L.sharedSize = sharedSize;
    L.raceCheck = raceCheck_ || config.check == CheckTool::Racecheck;
    // The check runs on the first launch; the timed repeats run without it.
    CheckFindings findings(config.check);
    L.check = config.check;
    if (config.check != CheckTool::None)
        L.findings = &findings;
    L.timeLimitSeconds = config.timeLimitSeconds;
    L.smCount = threadCount();
    L.profile = config.profile.enabled;
    if (L.profile && config.profile.capture)
        L.capture = resolveCapture(*mod, *fn, *config.profile.capture, report.warnings);

    // Module variables get fresh storage per launch, except those a document buffer fills:
    // that buffer is the variable's storage. Other buffers are mapped where they lie.
    const std::vector<BufferArg*> bound = bindGlobals(*mod, buffers);
    std::vector<std::vector<std::uint8_t>> globals;
    for (std::size_t gi = 0; gi < mod->globals.size(); ++gi) {
        const GlobalVar& g = mod->globals[gi];
        if (g.space == Space::Shared)
            continue;
        globals.push_back(g.init);
        auto& storage = globals.back();
        if (storage.empty())
            storage.resize(1);
        std::uint8_t* host = bound[gi] ? reinterpret_cast<std::uint8_t*>(bound[gi]->data.data()) : storage.data();
        L.mem.map(fmt::format("{} variable '{}'", g.space == Space::Const ? "constant" : "global", g.name), host,
                  g.size, g.space == Space::Const, g.address);
    }
    std::vector<std::uint64_t> bufferAddress(buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].global.empty())
            bufferAddress[i]
                = L.mem.map(fmt::format("buffer '{}'", buffers[i].name),
                            reinterpret_cast<std::uint8_t*>(buffers[i].data.data()), buffers[i].data.byteSize(), false);

    if (args.size() != fn->params.size())
        throw Error(ErrorCategory::Usage,
                    fmt::format("kernel '{}' takes {} parameters but {} arguments were given", kernel.name,
                                fn->params.size(), args.size()));
    L.params.assign(fn->paramBytes, 0);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const ParamDecl& p = fn->params[i];
        if (args[i].isBuffer) {
            if (args[i].buffer >= buffers.size() || !buffers[args[i].buffer].global.empty())
                throw Error(ErrorCategory::Usage,
                            fmt::format("argument {} names buffer {} of {}", i + 1, args[i].buffer, buffers.size()));
            if (p.size != 8)
                throw Error(ErrorCategory::Usage,
                            fmt::format("parameter {} ('{}') is not a pointer but a buffer was passed", i + 1, p.name));
            const std::uint64_t address = bufferAddress[args[i].buffer] + args[i].offsetBytes;
            std::memcpy(L.params.data() + p.offset, &address, 8);
        } else {
            if (args[i].bytes.size() != p.size)
                throw Error(ErrorCategory::Usage,
                            fmt::format("parameter {} ('{}') takes {} bytes but the argument has {}", i + 1, p.name,
                                        p.size, args[i].bytes.size()));
            std::memcpy(L.params.data() + p.offset, args[i].bytes.data(), p.size);
        }
    }

    const bool timed = config.repeats > 0 || config.warmup > 0;
    std::vector<std::vector<std::byte>> inputs;
    if (timed)
        for (auto& b : buffers)
            inputs.push_back(b.data.bytes());

    L.deadline = deadlineAfter(config.timeLimitSeconds);
    L.printfBufferBytes = config.printfBufferBytes;
    GridRun first = runGrid(L, threadCount());
    report.timings.firstLaunchMs = first.ms;
    report.printfOutput = std::move(first.printf);
    report.printfMaybeTruncated = L.printfTruncated.load();
    if (report.printfOutput.size() > config.printfBufferBytes) {
        // The GPU drops what overflows its printf FIFO; keep the same bound.
        const auto cut = report.printfOutput.rfind('\n', config.printfBufferBytes);
        report.printfOutput.resize(cut == std::string::npos ? config.printfBufferBytes : cut + 1);
        report.printfMaybeTruncated = true;
    }
    if (report.printfMaybeTruncated)
        report.warnings.push_back(
            fmt::format("printf output ({} bytes kept) was cut off: the device printf buffer is {} bytes; raise "
                        "run.printf_buffer_bytes",
                        report.printfOutput.size(), config.printfBufferBytes));
    // Only the first launch is counted: the timed repeats run unprofiled.
    if (L.profile) {
        std::vector<const ProfileCollector*> collectors;
        for (const auto& p : first.profiles)
            collectors.push_back(p.get());
        report.profile = mergeProfile(*mod, *fn, collectors, L.capture ? L.capture->maxSamples : 0);
        L.profile = false;
        L.capture.reset();
    }
    {
        std::lock_guard lock(L.mu);
        report.warnings.insert(report.warnings.end(), L.warnings.begin(), L.warnings.end());
        if (L.fault) {
            report.ok = false;
            report.fault = L.fault;
        }
    }
    findings.report(report);
    L.check = CheckTool::None;
    L.findings = nullptr;
    L.raceCheck = raceCheck_;

    std::vector<double> times;
    if (report.ok && timed && config.repeats > 0) {
        std::vector<std::vector<std::byte>> outputs;
        for (auto& b : buffers)
            outputs.push_back(b.data.bytes());
        const double budgetMs = repeatBudgetSeconds_ * 1000.0;
        const int fit = first.ms > 0 ? int(std::min(budgetMs / first.ms, 1e6)) : config.repeats;
        const int n = std::max(1, std::min(config.repeats, fit));
        if (n < config.repeats)
            report.warnings.push_back(fmt::format(
                "sim: ran {} of {} timed repeats ({:.1f} ms per launch on the CPU; repeats are capped at {:.0f} s); "
                "the first launch served as warm-up",
                n, config.repeats, first.ms, repeatBudgetSeconds_));
        for (int r = 0; r < n; ++r) {
            for (std::size_t i = 0; i < buffers.size(); ++i)
                buffers[i].data.bytes() = inputs[i];
            for (std::size_t g = 0, k = 0; g < mod->globals.size(); ++g)
                if (mod->globals[g].space != Space::Shared) {
                    auto& storage = globals[k++];
                    if (bound[g])
                        continue; // restored with the buffers
                    std::copy(mod->globals[g].init.begin(), mod->globals[g].init.end(), storage.begin());
                }
            L.deadline = deadlineAfter(config.timeLimitSeconds);
            L.printfBytes = 0;
            times.push_back(runGrid(L, threadCount()).ms);
            if (L.fault)
                break;
        }
        for (std::size_t i = 0; i < buffers.size(); ++i)
            buffers[i].data.bytes() = std::move(outputs[i]);
    }
    if (times.empty())
        times.push_back(first.ms);
    auto& t = report.timings;
    t.repeatMs = times;
    const TimingStats stats = TimingStats::compute(times);
    t.minMs = stats.min;
    t.medianMs = stats.median;
    t.meanMs = stats.mean;
    return report;
}

} // namespace kw
