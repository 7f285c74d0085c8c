#include "cuda/CudaBackend.hpp"

#include "cuda/Context.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/CudaFault.hpp"
#include "cuda/CudaResidentBuffers.hpp"
#include "cuda/CuptiKernelTimes.hpp"
#include "cuda/CuptiRangeTimes.hpp"
#include "cuda/DeviceMemory.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Event.hpp"
#include "cuda/L2Flusher.hpp"
#include "cuda/Module.hpp"
#include "cuda/SmClock.hpp"
#include "cuda/StagedTransfer.hpp"
#include "cuda/Stream.hpp"
#include "launch/LaunchLimits.hpp"
#include "launch/PrintfCapture.hpp"
#include "launch/TimingStats.hpp"
#include "launch/WarmupRule.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <thread>

namespace kw::cuda {

namespace {

using Clock = SteadyClock;

// Waits for `event` without blocking in the driver, so an endless kernel turns
// into a timeout instead of a hang. Returns CUDA_ERROR_LAUNCH_TIMEOUT on expiry.
CUresult waitFor(const DriverApi& api, CUevent event, double limitSeconds)
{
    const auto deadline = Clock::now() + std::chrono::duration<double>(limitSeconds);
    auto pause = std::chrono::microseconds(0);
    for (;;) {
        CUresult r = api.cuEventQuery(event);
        if (r != CUDA_ERROR_NOT_READY)
            return r;
        if (Clock::now() > deadline)
            return CUDA_ERROR_LAUNCH_TIMEOUT;
        // Spin briefly (short kernels), then back off to at most 1 ms.
        if (pause.count() == 0)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(pause);
        pause = std::min(std::chrono::microseconds(1000), pause + std::chrono::microseconds(20));
    }
}

} // namespace

// The module of the last image, kept while launches use the same image (its
// __device__ variables live as long as it does), and its kernels looked up so far.
struct CudaBackend::LoadedModule {
    std::size_t imageHash = 0;
    Module module;
    bool hasTrap = false;
    std::map<std::string, Loaded> kernels; // by lowered name
    std::string lastKernel;                // lowered name of the last launch
};

CudaBackend::CudaBackend(int ordinal, PrintfCapture* printf)
    : ordinal_(ordinal)
    , info_(CudaDevices::query(ordinal))
    , printf_(printf)
{
    context_ = std::make_unique<Context>(ordinal);
    stream_ = std::make_unique<Stream>();
    transfer_ = std::make_unique<StagedTransfer>();
    l2_ = std::make_unique<L2Flusher>(context_->device());
    const auto& api = DriverApi::get();
    char busId[32] = {};
    if (api.cuDeviceGetPCIBusId
        && api.cuDeviceGetPCIBusId(busId, int(sizeof busId), context_->device()) != CUDA_SUCCESS)
        busId[0] = 0;
    smClock_ = std::make_unique<SmClock>(busId);
    printfFifo_ = printfFifoRequested_ = context_->limit(CU_LIMIT_PRINTF_FIFO_SIZE);
}

CudaBackend::~CudaBackend()
{
    if (hung_) {
        // A kernel is still running: any driver call could block forever. The process
        // is about to end (exit or exec), which tears the context down.
        (void)loaded_.release();
        (void)transfer_.release();
        (void)l2_.release();
        (void)stream_.release();
        (void)context_.release();
    }
}

std::string CudaBackend::compileArch() const { return CudaDevices::cubinArch(info_); }

bool CudaBackend::canUsePrintfBuffer(std::size_t bytes) const noexcept
{
    return !launchedAny_ || bytes == printfFifoRequested_ || bytes == printfFifo_;
}

const CudaBackend::Loaded& CudaBackend::load(const KernelImage& kernel, double& loadMs, bool freshForAnotherKernel)
{
    const bool useCubin = !kernel.cubin.empty();
    const std::size_t hash = useCubin
        ? std::hash<std::string_view>{}(std::string_view(kernel.cubin.data(), kernel.cubin.size()))
        : std::hash<std::string>{}(kernel.ptx);
    loadMs = 0;
    const auto t0 = Clock::now();
    // A run of one launch gets the module afresh when it launches another kernel than the
    // last; launches on resident buffers share the module and its variables.
    if (!loaded_ || loaded_->imageHash != hash
        || (freshForAnotherKernel && loaded_->lastKernel != kernel.loweredName)) {
        loaded_.reset(); // unload the previous module first
        auto m = std::make_unique<LoadedModule>();
        m->imageHash = hash;
        m->hasTrap = CudaFault::ptxHasTrap(kernel.ptx);
        m->module = useCubin ? Module(kernel.cubin.data(), kernel.name + " (cubin)")
                             : Module(kernel.ptx.c_str(), kernel.name + " (ptx)");
        loaded_ = std::move(m);
    }
    loaded_->lastKernel = kernel.loweredName;
    if (const auto it = loaded_->kernels.find(kernel.loweredName); it != loaded_->kernels.end())
        return it->second;

    const auto& api = DriverApi::get();
    Loaded l;
    l.module = &loaded_->module;
    l.hasTrap = loaded_->hasTrap;
    l.function = loaded_->module.function(kernel.loweredName);
    auto attr = [&](CUfunction_attribute a) {
        int v = 0;
        api.check(api.cuFuncGetAttribute(&v, a, l.function), "cuFuncGetAttribute", "kernel " + kernel.name);
        return v;
    };
    l.maxThreads = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l.staticShared = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    l.registers = attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
    l.localBytes = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    loadMs = msSince(t0);
    return loaded_->kernels.emplace(kernel.loweredName, l).first->second;
}

void CudaBackend::checkUsable() const
{
    if (poisoned_)
        throw Error(ErrorCategory::Driver,
                    "the CUDA context of cuda:" + std::to_string(ordinal_)
                        + " is unusable after an earlier fault; a fresh runner process is needed");
}

const CudaBackend::Loaded& CudaBackend::prepare(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                                                std::size_t bufferCount, const LaunchConfig& config,
                                                LaunchReport& report, bool resident)
{
    checkUsable();
    const auto& api = DriverApi::get();
    context_->makeCurrent();
    if (!canUsePrintfBuffer(config.printfBufferBytes)) {
        throw Error(ErrorCategory::Usage,
                    fmt::format("the device printf buffer is {} bytes in this runner and can only "
                                "be changed before the first launch; {} bytes need a fresh runner",
                                printfFifo_, config.printfBufferBytes));
    }
    if (config.printfBufferBytes != printfFifoRequested_ && config.printfBufferBytes != printfFifo_) {
        context_->setLimit(CU_LIMIT_PRINTF_FIFO_SIZE, config.printfBufferBytes);
        printfFifoRequested_ = config.printfBufferBytes;
        printfFifo_ = context_->limit(CU_LIMIT_PRINTF_FIFO_SIZE);
    }

    const Loaded& fn = load(kernel, report.timings.moduleLoadMs, !resident);
    const DeviceLimits& lim = info_.limits;
    const std::string kname = "kernel " + kernel.name;

    // Validated against the real limits before launching.
    const std::size_t totalShared = std::size_t(fn.staticShared) + config.sharedBytes;
    refuseViolations(
        kernel.name,
        checkLaunchLimits(config, lim, {std::uint64_t(fn.maxThreads), fn.registers, std::uint64_t(fn.staticShared)}));
    // Above the default 48 KiB per block a kernel must opt in to more dynamic shared memory.
    if (totalShared > lim.sharedPerBlock)
        api.check(api.cuFuncSetAttribute(fn.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         int(config.sharedBytes)),
                  "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                  fmt::format("{}, {} bytes", kname, config.sharedBytes));

    // Each argument against the kernel's own parameter layout, every mismatch named.
    if (api.cuFuncGetParamInfo) {
        std::vector<std::string> mismatches;
        std::size_t count = 0;
        for (;; ++count) {
            std::size_t offset = 0, size = 0;
            CUresult r = api.cuFuncGetParamInfo(fn.function, count, &offset, &size);
            if (r != CUDA_SUCCESS)
                break;
            if (count < args.size()) {
                const std::size_t passed = args[count].isBuffer ? sizeof(CUdeviceptr) : args[count].bytes.size();
                if (passed != size)
                    mismatches.push_back(fmt::format("argument {} is {} bytes but the kernel's parameter {} "
                                                     "(at offset {}) is {} bytes",
                                                     count, passed, count, offset, size));
            }
        }
        if (count != args.size())
            mismatches.push_back(
                fmt::format("{} arguments given but the kernel has {} parameters", args.size(), count));
        refuseLaunch(kernel.name, mismatches);
    }
    for (const auto& a : args)
        if (a.isBuffer && a.buffer >= bufferCount)
            throw Error(ErrorCategory::Internal,
                        fmt::format("argument refers to buffer {} of {}", a.buffer, bufferCount));
    return fn;
}

void CudaBackend::findVariables(const Loaded& fn, std::vector<Placed>& placed) const
{
    for (Placed& b : placed) {
        b.variable = 0;
        if (b.global.empty())
            continue;
        const auto g = fn.module->global(b.global);
        if (!g)
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the module has no __constant__ or __device__ variable of that name",
                                    b.global));
        if (g->bytes != b.bytes)
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the variable is {} bytes but the document gives {} bytes", b.global,
                                    g->bytes, b.bytes));
        b.variable = g->pointer;
    }
}

void CudaBackend::copyVariables(const std::vector<Placed>& placed, bool intoModule) const
{
    const auto& api = DriverApi::get();
    const CUstream stream = stream_->handle();
    for (const Placed& b : placed) {
        if (!b.variable || b.bytes == 0 || (!intoModule && b.direction == Direction::In))
            continue;
        api.check(intoModule ? api.cuMemcpyDtoDAsync(b.variable, b.pointer, b.bytes, stream)
                             : api.cuMemcpyDtoDAsync(b.pointer, b.variable, b.bytes, stream),
                  "cuMemcpyDtoDAsync", "global " + b.global);
    }
}

std::vector<void*> CudaBackend::parameters(const std::vector<LaunchArg>& args, const std::vector<Placed>& placed,
                                           std::vector<CUdeviceptr>& pointers)
{
    pointers.assign(args.size(), 0);
    std::vector<void*> params(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].isBuffer) {
            pointers[i] = placed[args[i].buffer].pointer + args[i].offsetBytes;
            params[i] = &pointers[i];
        } else {
            params[i] = const_cast<std::byte*>(args[i].bytes.data());
        }
    }
    return params;
}

CUresult CudaBackend::launchOnce(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                                 std::vector<void*>& params)
{
    const auto& api = DriverApi::get();
    launchedAny_ = true;
    CUresult r
        = api.cuLaunchKernel(fn.function, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
                             config.block.z, config.sharedBytes, stream_->handle(), params.data(), nullptr);
    if (r != CUDA_SUCCESS && !CudaFault::isSticky(r))
        api.check(r, "cuLaunchKernel",
                  fmt::format("kernel {}, grid {}, block {}, {} bytes dynamic shared memory", kernel.name,
                              toString(config.grid), toString(config.block), config.sharedBytes));
    return r;
}

CUresult CudaBackend::launchAndWait(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                                    std::vector<void*>& params, Event& start, Event& stop)
{
    start.record(stream_->handle());
    CUresult r = launchOnce(fn, kernel, config, params);
    if (r == CUDA_SUCCESS) {
        stop.record(stream_->handle());
        r = waitFor(DriverApi::get(), stop.handle(), config.timeLimitSeconds);
    }
    return r;
}

CUresult CudaBackend::waitForEvent(CUevent event, double limitSeconds)
{
    return waitFor(DriverApi::get(), event, limitSeconds);
}

bool CudaBackend::faulted(CUresult r, const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                          LaunchReport& report, const std::function<void()>& abandonMemory)
{
    if (r == CUDA_SUCCESS)
        return false;
    const auto& api = DriverApi::get();
    report.ok = false;
    if (r == CUDA_ERROR_LAUNCH_TIMEOUT) {
        report.fault = CudaFault::timeout(kernel.name, config.timeLimitSeconds);
        hung_ = true;
    } else {
        report.fault = CudaFault::fromResult(r, api.errorName(r), api.errorString(r), kernel.name, fn.hasTrap);
        if (!report.fault)
            api.check(r, "kernel execution", "kernel " + kernel.name);
    }
    poisoned_ = true;
    if (hung_)
        abandonMemory();
    // Whatever the kernel printed before the fault is still worth showing.
    if (printf_ && !hung_) {
        api.cuCtxSynchronize();
        report.printfOutput = printf_->collect();
    }
    return true;
}

void CudaBackend::collectPrintf(LaunchReport& report)
{
    report.printfOutput = printf_->collect();
    const std::size_t lines = std::size_t(std::count(report.printfOutput.begin(), report.printfOutput.end(), '\n'));
    // A record is at least a header and the format pointer plus 8 bytes per argument (the
    // block/thread tag alone adds six): 64 bytes a line is a conservative estimate, and
    // half the FIFO is where the warning starts.
    const std::size_t estimate = std::max(report.printfOutput.size(), lines * 64);
    if (estimate * 2 >= printfFifo_) {
        report.printfMaybeTruncated = true;
        report.warnings.push_back(
            fmt::format("printf output ({} lines, {} bytes) may have been cut off: the device printf buffer "
                        "is {} bytes; raise run.printf_buffer_bytes",
                        lines, report.printfOutput.size(), printfFifo_));
    }
}

LaunchReport CudaBackend::launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                 const std::vector<LaunchArg>& args, const LaunchConfig& config)
{
    LaunchReport report;
    const Loaded& fn = prepare(kernel, args, buffers.size(), config, report, false);
    const auto& api = DriverApi::get();
    const CUstream stream = stream_->handle();

    // Allocated and uploaded; pristine copies restore the inputs before each repeat.
    std::vector<DeviceMemory> device, pristine;
    device.reserve(buffers.size());
    for (const auto& b : buffers)
        device.emplace_back(b.data.byteSize(), b.name);
    auto t0 = Clock::now();
    for (std::size_t i = 0; i < buffers.size(); ++i)
        transfer_->upload(buffers[i].data.data(), device[i].pointer(), buffers[i].data.byteSize(), stream,
                          buffers[i].name);
    report.timings.h2dMs = msSince(t0);
    if (config.repeats > 0) {
        pristine.reserve(buffers.size());
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            pristine.emplace_back(buffers[i].data.byteSize(), buffers[i].name + " (pristine copy)");
            if (buffers[i].data.byteSize() == 0)
                continue;
            api.check(
                api.cuMemcpyDtoDAsync(pristine[i].pointer(), device[i].pointer(), buffers[i].data.byteSize(), stream),
                "cuMemcpyDtoDAsync", "pristine copy of buffer " + buffers[i].name);
        }
    }
    std::vector<Placed> placed;
    for (std::size_t i = 0; i < buffers.size(); ++i)
        placed.push_back({buffers[i].name, buffers[i].global, buffers[i].direction, buffers[i].data.byteSize(),
                          device[i].pointer()});
    // A module variable a buffer fills takes the buffer's device copy before every
    // launch and gives it back after the first.
    findVariables(fn, placed);
    copyVariables(placed, true);
    std::vector<CUdeviceptr> pointers;
    std::vector<void*> params = parameters(args, placed, pointers);
    const auto abandon = [&] {
        for (auto& d : device)
            d.abandon();
        for (auto& d : pristine)
            d.abandon();
    };

    // The one launch whose results are the outputs.
    Event start, stop;
    if (faulted(launchAndWait(fn, kernel, config, params, start, stop), fn, kernel, config, report, abandon))
        return report;
    report.timings.firstLaunchMs = stop.elapsedSince(start);
    if (printf_) {
        // A sync point makes the driver flush the device printf FIFO to stdout.
        if (faulted(api.cuCtxSynchronize(), fn, kernel, config, report, abandon))
            return report;
        collectPrintf(report);
    }

    copyVariables(placed, false);
    t0 = Clock::now();
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].direction != Direction::In)
            transfer_->download(device[i].pointer(), buffers[i].data.data(), buffers[i].data.byteSize(), stream,
                                buffers[i].name);
    report.timings.d2hMs = msSince(t0);

    // Warm-up and timed repeats on restored inputs (restoring is a device copy from the
    // pristine copies, outside the timed region).
    const auto restore = [&] {
        for (std::size_t i = 0; i < buffers.size(); ++i)
            if (buffers[i].data.byteSize() > 0)
                api.check(api.cuMemcpyDtoDAsync(device[i].pointer(), pristine[i].pointer(), buffers[i].data.byteSize(),
                                                stream),
                          "cuMemcpyDtoDAsync", "restoring buffer " + buffers[i].name);
        copyVariables(placed, true);
    };
    if (!timeRepeats(fn, kernel, config, params, report, restore, abandon))
        return report;
    if (printf_) {
        // The repeats print again; their output is not the run's output.
        if (faulted(api.cuCtxSynchronize(), fn, kernel, config, report, abandon))
            return report;
        (void)printf_->collect();
    }
    return report;
}

bool CudaBackend::timeRepeats(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                              std::vector<void*>& params, LaunchReport& report, const std::function<void()>& prepareRun,
                              const std::function<void()>& abandonMemory)
{
    KernelTimings& t = report.timings;
    TimingDetail& d = t.detail;
    d.method = "cuda events";
    const int repeats = std::max(0, config.repeats);
    if (repeats == 0) {
        t.repeatMs = {t.firstLaunchMs};
        t.minMs = t.medianMs = t.meanMs = d.ciLowMs = d.ciHighMs = t.firstLaunchMs;
        return true;
    }
    const CUstream stream = stream_->handle();
    // Auto decides on the first warm-up's time (or the first launch's, without warm-up):
    // the first launch may include loading the kernel (lazy loading), not only running it.
    std::optional<bool> flushL2;
    if (config.l2Flush != L2Flush::Auto)
        flushL2 = config.l2Flush == L2Flush::On;
    const auto decideFlush = [&](double ms) {
        if (!flushL2)
            flushL2 = ms >= kAutoL2FlushBelowMs;
    };
    const auto beforeEach = [&] {
        prepareRun();
        if (flushL2.value_or(false))
            d.l2Flushed = l2_->flush(stream);
    };
    d.smClockMaxMhz = smClock_->maxMhz();
    d.smClockBeforeMhz = smClock_->currentMhz();

    // Warm-up, timed with events, until the times settle (WarmupRule).
    const WarmupRule rule(std::size_t(std::max(0, config.warmup)));
    std::vector<double> warm;
    Event start, stop;
    while (rule.more(warm)) {
        beforeEach();
        if (faulted(launchAndWait(fn, kernel, config, params, start, stop), fn, kernel, config, report, abandonMemory))
            return false;
        warm.push_back(stop.elapsedSince(start));
        decideFlush(warm.front());
    }
    d.warmupRuns = int(warm.size());
    d.warmupSettled = rule.settled(warm);
    decideFlush(t.firstLaunchMs);

    // The timed runs: events around each, and the GPU's own start and end of the same
    // kernels where CUPTI gives them: Nsight Compute's metric through the range profiler,
    // else the activity records (no launch latency, no event overhead either way).
    const std::size_t launches = std::size_t(repeats) * (flushL2.value_or(false) ? 2 : 1);
    CuptiRangeTimes* profiler = CuptiRangeTimes::get();
    const bool profiling = profiler && profiler->begin(context_->handle(), ordinal_, launches);
    CuptiKernelTimes* cupti = profiling ? nullptr : CuptiKernelTimes::get();
    const bool collecting = cupti && cupti->begin();
    const auto stopCollecting = [&] {
        if (profiling)
            (void)profiler->end();
        if (collecting)
            (void)cupti->end();
    };
    std::vector<Event> starts(static_cast<std::size_t>(repeats));
    std::vector<Event> stops(static_cast<std::size_t>(repeats));
    for (int rep = 0; rep < repeats; ++rep) {
        beforeEach();
        const CUresult r = launchAndWait(fn, kernel, config, params, starts[std::size_t(rep)], stops[std::size_t(rep)]);
        if (r != CUDA_SUCCESS && r != CUDA_ERROR_LAUNCH_TIMEOUT) // a hung kernel: leave CUPTI be
            stopCollecting();
        if (faulted(r, fn, kernel, config, report, abandonMemory))
            return false;
    }
    std::vector<double> gpuMs = profiling ? profiler->end() : collecting ? cupti->end() : std::vector<double>{};
    if (d.l2Flushed && gpuMs.size() == 2 * std::size_t(repeats)) {
        // The flush's own kernel ran before each timed one.
        std::vector<double> timed;
        for (std::size_t i = 1; i < gpuMs.size(); i += 2)
            timed.push_back(gpuMs[i]);
        gpuMs = std::move(timed);
    }
    d.smClockAfterMhz = smClock_->currentMhz();
    // Why a better source was not used, for the method's note.
    std::string note = !profiler ? ""
        : !profiling             ? "CUPTI's profiler refused: " + profiler->lastError()
                                 : profiler->lastError();
    if ((profiling || collecting) && gpuMs.size() == std::size_t(repeats)) {
        t.repeatMs = std::move(gpuMs);
        d.method = profiling ? "cupti profiler" : "cupti";
    } else {
        for (int i = 0; i < repeats; ++i)
            t.repeatMs.push_back(stops[std::size_t(i)].elapsedSince(starts[std::size_t(i)]));
        const std::string why = profiling || collecting
            ? fmt::format("{} gave {} kernel times for {} runs", profiling ? "CUPTI's profiler" : "CUPTI", gpuMs.size(),
                          repeats)
            : !cupti ? "CUPTI unavailable: " + CuptiKernelTimes::unavailableReason()
                     : "CUPTI refused: " + cupti->lastError();
        note = note.empty() ? why : why + "; " + note;
    }
    d.methodNote = note;
    const TimingStats stats = TimingStats::compute(t.repeatMs);
    t.minMs = stats.min;
    t.medianMs = stats.median;
    t.meanMs = stats.mean;
    d.ciLowMs = stats.ciLow;
    d.ciHighMs = stats.ciHigh;
    d.ciLevel = stats.ciLevel;
    return true;
}

std::unique_ptr<ResidentBuffers> CudaBackend::residentBuffers()
{
    checkUsable();
    context_->makeCurrent();
    return std::make_unique<CudaResidentBuffers>(*this);
}

} // namespace kw::cuda
