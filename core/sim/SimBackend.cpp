#include "sim/SimBackend.hpp"

#include "sim/SimResidentBuffers.hpp"

#include "sim/LaunchMemoryBudget.hpp"

#include "launch/LaunchLimits.hpp"
#include "launch/RunNotes.hpp"
#include "launch/TimingStats.hpp"
#include "sim/LaunchRun.hpp"
#include "sim/LaunchSetup.hpp"
#include "sim/LaunchState.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/PtxParser.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"
#include "util/SystemMemory.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <memory>
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

// The kernel's entry, checked against the launch limits and the memory the launch will
// allocate, before any of it is; instructions the simulator cannot run are named up
// front (they fault only when reached).
const Function& entryOf(const Module& mod, const KernelImage& kernel, const LaunchConfig& config,
                        const DeviceLimits& limits, unsigned threads, std::vector<std::string>& warnings)
{
    const std::string entry = kernel.loweredName.empty() ? kernel.name : kernel.loweredName;
    const Function* fn = mod.findFunction(entry);
    if (!fn || !fn->isEntry)
        throw Error(ErrorCategory::Simulator, fmt::format("kernel entry '{}' not found in the PTX module", entry));
    refuseViolations(kernel.name, checkLaunchLimits(config, limits, {0, 0, mod.staticShared}));
    if (const auto& c = fn->clusterDims; std::uint64_t(c[0]) * c[1] * c[2] > 1)
        throw Error(ErrorCategory::Simulator,
                    fmt::format("kernel '{}' runs in thread block clusters of {} x {} x {} blocks (__cluster_dims__); "
                                "the simulator runs every block alone, as a cluster of one, so it does not run this "
                                "kernel: run it on a GPU of compute capability 9.0 or later",
                                kernel.name, c[0], c[1], c[2]));
    for (std::size_t i = 0; i < fn->unsupported.size(); ++i) {
        if (fn->unsupported[i].empty())
            continue;
        // The file too: an instruction of a CUDA header (cooperative groups) has a line of its own.
        const std::string file = mod.fileName(fn->code[i].file);
        const std::string where = !fn->code[i].line ? std::string("an unknown line")
            : file.empty()                          ? fmt::format("line {}", fn->code[i].line)
                                                    : fmt::format("line {} of {}", fn->code[i].line, file);
        warnings.push_back(fmt::format("sim: {}: `{}` is not supported by the simulator ({}); the "
                                       "kernel faults if it reaches it",
                                       where, fn->text[i], fn->unsupported[i]));
    }
    const std::uint32_t sharedSize = mod.sharedBytes(config.sharedBytes);
    LaunchMemoryBudget::check(
        LaunchMemoryBudget::of(mod, *fn, config.block, sharedSize, config.printfBufferBytes, threads),
        LaunchMemoryBudget::defaultLimit());
    return *fn;
}

// The whole grid once, over the worker threads, within the time limit.
GridRun runGrid(LaunchSetup& launch, double timeLimitSeconds, unsigned threads)
{
    LaunchState& L = launch.state();
    L.deadline = deadlineAfter(timeLimitSeconds);
    L.printfBytes = 0;
    LaunchRun run(L);
    return run.finish(threads);
}

// The first launch's outputs, profile, warnings, fault and findings into the report.
void reportFirstRun(LaunchSetup& launch, GridRun& first, const LaunchConfig& config, LaunchReport& report)
{
    LaunchState& L = launch.state();
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
        report.profile = mergeProfile(launch.module(), *L.fn, collectors, L.capture ? L.capture->maxSamples : 0);
    }
    {
        std::lock_guard lock(L.mu);
        report.warnings.insert(report.warnings.end(), L.warnings.begin(), L.warnings.end());
        if (L.fault) {
            report.ok = false;
            report.fault = L.fault;
        }
    }
    launch.findings().report(report);
}

// Timed repeats on the restored inputs, as many as fit the budget; the buffers end as
// the first launch left them. The budget is a deadline on the repeats' wall time, not
// only a count from the first launch's time: restoring the inputs costs time too, and a
// loaded machine slows the later launches.
std::vector<double> timedRepeats(LaunchSetup& launch, std::vector<BufferArg>& buffers,
                                 const std::vector<HostBytes>& inputs, const LaunchConfig& config, double budgetSeconds,
                                 unsigned threads, std::vector<std::string>& warnings)
{
    std::vector<double> times;
    std::vector<HostBytes> outputs;
    for (auto& b : buffers)
        outputs.push_back(b.data.bytes());
    const double budgetMs = budgetSeconds * 1000.0;
    const auto start = SteadyClock::now();
    for (int r = 0; r < config.repeats && (r == 0 || msSince(start) < budgetMs); ++r) {
        for (std::size_t i = 0; i < buffers.size(); ++i)
            buffers[i].data.bytes() = inputs[i];
        launch.restoreVariables();
        times.push_back(runGrid(launch, config.timeLimitSeconds, threads).ms);
        if (launch.state().fault)
            break;
    }
    const int ran = int(times.size());
    if (ran < config.repeats && !launch.state().fault) // a note (RunNotes)
        warnings.push_back(repeatCapNote(ran, config.repeats, msSince(start) / ran, budgetSeconds));
    for (std::size_t i = 0; i < buffers.size(); ++i)
        buffers[i].data.bytes() = std::move(outputs[i]);
    return times;
}

void summariseTimes(std::vector<double> times, KernelTimings& t)
{
    t.repeatMs = std::move(times);
    const TimingStats stats = TimingStats::compute(t.repeatMs);
    t.minMs = stats.min;
    t.medianMs = stats.median;
    t.meanMs = stats.mean;
    t.detail.method = "host clock"; // the simulator's wall time, not a GPU's
    t.detail.ciLowMs = stats.ciLow;
    t.detail.ciHighMs = stats.ciHigh;
    t.detail.ciLevel = stats.ciLevel;
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

std::unique_ptr<ResidentBuffers> SimBackend::residentBuffers() { return std::make_unique<SimResidentBuffers>(*this); }

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
    return launch(kernel, buffers, args, config, {});
}

LaunchReport SimBackend::launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                const std::vector<LaunchArg>& args, const LaunchConfig& config,
                                std::vector<std::uint8_t*> written)
{
    LaunchReport report;
    double parseMs = 0;
    auto mod = module(kernel.ptx, parseMs);
    report.timings.moduleLoadMs = parseMs;
    const Function& fn = entryOf(*mod, kernel, config, device().limits, threadCount(), report.warnings);
    LaunchSetup launch(mod, fn, buffers, args, config, {kernel.name, raceCheck_, threadCount(), std::move(written)},
                       report.warnings);

    // Only timed repeats restore the inputs (the simulator runs no warm-up launches): a
    // copy of every buffer is taken for them alone.
    const bool timed = config.repeats > 0;
    std::vector<HostBytes> inputs;
    if (timed)
        for (auto& b : buffers)
            inputs.push_back(b.data.bytes());

    GridRun first = runGrid(launch, config.timeLimitSeconds, threadCount());
    reportFirstRun(launch, first, config, report);
    launch.plainFromNowOn();

    std::vector<double> times;
    if (report.ok && timed)
        times = timedRepeats(launch, buffers, inputs, config, repeatBudgetSeconds_, threadCount(), report.warnings);
    if (times.empty())
        times.push_back(first.ms);
    summariseTimes(std::move(times), report.timings);
    return report;
}

} // namespace kw
