#include "cuda/CudaBackend.hpp"

#include "cuda/Context.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/CudaFault.hpp"
#include "cuda/DeviceMemory.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Event.hpp"
#include "cuda/Module.hpp"
#include "cuda/StagedTransfer.hpp"
#include "cuda/Stream.hpp"
#include "launch/LaunchLimits.hpp"
#include "launch/PrintfCapture.hpp"
#include "launch/TimingStats.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
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

struct CudaBackend::Loaded {
    std::size_t imageHash = 0;
    std::string loweredName;
    Module module;
    CUfunction function = nullptr;
    bool hasTrap = false;
    int maxThreads = 0, staticShared = 0, registers = 0, localBytes = 0;
};

CudaBackend::CudaBackend(int ordinal, PrintfCapture* printf)
    : ordinal_(ordinal)
    , info_(CudaDevices::query(ordinal))
    , printf_(printf)
{
    context_ = std::make_unique<Context>(ordinal);
    stream_ = std::make_unique<Stream>();
    transfer_ = std::make_unique<StagedTransfer>();
    printfFifo_ = printfFifoRequested_ = context_->limit(CU_LIMIT_PRINTF_FIFO_SIZE);
}

CudaBackend::~CudaBackend()
{
    if (hung_) {
        // A kernel is still running: any driver call could block forever. The process
        // is about to end (exit or exec), which tears the context down.
        (void)loaded_.release();
        (void)transfer_.release();
        (void)stream_.release();
        (void)context_.release();
    }
}

std::string CudaBackend::compileArch() const { return CudaDevices::cubinArch(info_); }

bool CudaBackend::canUsePrintfBuffer(std::size_t bytes) const noexcept
{
    return !launchedAny_ || bytes == printfFifoRequested_ || bytes == printfFifo_;
}

const CudaBackend::Loaded& CudaBackend::load(const KernelImage& kernel, double& loadMs)
{
    const bool useCubin = !kernel.cubin.empty();
    const std::size_t hash = useCubin
        ? std::hash<std::string_view>{}(std::string_view(kernel.cubin.data(), kernel.cubin.size()))
        : std::hash<std::string>{}(kernel.ptx);
    loadMs = 0;
    if (loaded_ && loaded_->imageHash == hash && loaded_->loweredName == kernel.loweredName)
        return *loaded_;

    const auto& api = DriverApi::get();
    const auto t0 = Clock::now();
    auto l = std::make_unique<Loaded>();
    l->imageHash = hash;
    l->loweredName = kernel.loweredName;
    l->hasTrap = CudaFault::ptxHasTrap(kernel.ptx);
    loaded_.reset(); // unload the previous module first
    l->module = useCubin ? Module(kernel.cubin.data(), kernel.name + " (cubin)")
                         : Module(kernel.ptx.c_str(), kernel.name + " (ptx)");
    l->function = l->module.function(kernel.loweredName);
    auto attr = [&](CUfunction_attribute a) {
        int v = 0;
        api.check(api.cuFuncGetAttribute(&v, a, l->function), "cuFuncGetAttribute", "kernel " + kernel.name);
        return v;
    };
    l->maxThreads = attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l->staticShared = attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    l->registers = attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
    l->localBytes = attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    loadMs = msSince(t0);
    loaded_ = std::move(l);
    return *loaded_;
}

LaunchReport CudaBackend::launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                 const std::vector<LaunchArg>& args, const LaunchConfig& config)
{
    if (poisoned_)
        throw Error(ErrorCategory::Driver,
                    "the CUDA context of cuda:" + std::to_string(ordinal_)
                        + " is unusable after an earlier fault; a fresh runner process is needed");
    const auto& api = DriverApi::get();
    context_->makeCurrent();
    LaunchReport report;

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

    const Loaded& fn = load(kernel, report.timings.moduleLoadMs);
    const DeviceLimits& lim = info_.limits;
    const std::string kname = "kernel " + kernel.name;

    // ---- validate against the real limits before launching
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
        auto limitError = [&](std::string what) { mismatches.push_back(std::move(what)); };
        std::size_t count = 0;
        for (;; ++count) {
            std::size_t offset = 0, size = 0;
            CUresult r = api.cuFuncGetParamInfo(fn.function, count, &offset, &size);
            if (r != CUDA_SUCCESS)
                break;
            if (count < args.size()) {
                const std::size_t passed = args[count].isBuffer ? sizeof(CUdeviceptr) : args[count].bytes.size();
                if (passed != size)
                    limitError(fmt::format("argument {} is {} bytes but the kernel's parameter {} "
                                           "(at offset {}) is {} bytes",
                                           count, passed, count, offset, size));
            }
        }
        if (count != args.size())
            limitError(fmt::format("{} arguments given but the kernel has {} parameters", args.size(), count));
        refuseLaunch(kernel.name, mismatches);
    }
    for (const auto& a : args)
        if (a.isBuffer && a.buffer >= buffers.size())
            throw Error(ErrorCategory::Internal,
                        fmt::format("argument refers to buffer {} of {}", a.buffer, buffers.size()));

    // ---- allocate and upload
    std::vector<DeviceMemory> device, pristine;
    device.reserve(buffers.size());
    for (const auto& b : buffers)
        device.emplace_back(b.data.byteSize(), b.name);
    const CUstream stream = stream_->handle();
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

    // ---- module variables a buffer fills: its device copy goes into the variable
    // before every launch and comes back after the first
    std::vector<CUdeviceptr> variable(buffers.size(), 0);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        if (buffers[i].global.empty())
            continue;
        const auto g = fn.module.global(buffers[i].global);
        if (!g)
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the module has no __constant__ or __device__ variable of that name",
                                    buffers[i].global));
        if (g->bytes != buffers[i].data.byteSize())
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the variable is {} bytes but the document gives {} bytes",
                                    buffers[i].global, g->bytes, buffers[i].data.byteSize()));
        variable[i] = g->pointer;
    }
    auto copyVariables = [&](bool intoModule) {
        for (std::size_t i = 0; i < buffers.size(); ++i) {
            if (!variable[i] || buffers[i].data.byteSize() == 0
                || (!intoModule && buffers[i].direction == Direction::In))
                continue;
            api.check(intoModule
                          ? api.cuMemcpyDtoDAsync(variable[i], device[i].pointer(), buffers[i].data.byteSize(), stream)
                          : api.cuMemcpyDtoDAsync(device[i].pointer(), variable[i], buffers[i].data.byteSize(), stream),
                      "cuMemcpyDtoDAsync", "global " + buffers[i].global);
        }
    };
    copyVariables(true);

    // ---- kernel parameters
    std::vector<CUdeviceptr> pointers(args.size());
    std::vector<void*> params(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].isBuffer) {
            pointers[i] = device[args[i].buffer].pointer() + args[i].offsetBytes;
            params[i] = &pointers[i];
        } else {
            params[i] = const_cast<std::byte*>(args[i].bytes.data());
        }
    }

    Event start, stop;
    auto launchOnce = [&]() {
        CUresult r
            = api.cuLaunchKernel(fn.function, config.grid.x, config.grid.y, config.grid.z, config.block.x,
                                 config.block.y, config.block.z, config.sharedBytes, stream, params.data(), nullptr);
        if (r != CUDA_SUCCESS && !CudaFault::isSticky(r))
            api.check(r, "cuLaunchKernel",
                      fmt::format("{}, grid {}, block {}, {} bytes dynamic shared memory", kname, toString(config.grid),
                                  toString(config.block), config.sharedBytes));
        return r;
    };
    // Returns true and fills the report when the kernel faulted or timed out.
    auto faulted = [&](CUresult r) {
        if (r == CUDA_SUCCESS)
            return false;
        report.ok = false;
        if (r == CUDA_ERROR_LAUNCH_TIMEOUT) {
            report.fault = CudaFault::timeout(kernel.name, config.timeLimitSeconds);
            hung_ = true;
        } else {
            report.fault = CudaFault::fromResult(r, api.errorName(r), api.errorString(r), kernel.name, fn.hasTrap);
            if (!report.fault)
                api.check(r, "kernel execution", kname);
        }
        poisoned_ = true;
        if (hung_) {
            for (auto& d : device)
                d.abandon();
            for (auto& d : pristine)
                d.abandon();
        }
        // Whatever the kernel printed before the fault is still worth showing.
        if (printf_ && !hung_) {
            api.cuCtxSynchronize();
            report.printfOutput = printf_->collect();
        }
        return true;
    };

    // ---- the one launch whose results are the outputs
    launchedAny_ = true;
    start.record(stream);
    CUresult r = launchOnce();
    if (r == CUDA_SUCCESS) {
        stop.record(stream);
        r = waitFor(api, stop.handle(), config.timeLimitSeconds);
    }
    if (faulted(r))
        return report;
    report.timings.firstLaunchMs = stop.elapsedSince(start);
    if (printf_) {
        // A sync point makes the driver flush the device printf FIFO to stdout.
        if (faulted(api.cuCtxSynchronize()))
            return report;
        report.printfOutput = printf_->collect();
        const std::size_t lines = std::size_t(std::count(report.printfOutput.begin(), report.printfOutput.end(), '\n'));
        // A record is at least a header and the format pointer plus 8 bytes per
        // argument (the block/thread tag alone adds six): 64 bytes a line is a
        // conservative estimate, and half the FIFO is where the warning starts.
        const std::size_t estimate = std::max(report.printfOutput.size(), lines * 64);
        if (estimate * 2 >= printfFifo_) {
            report.printfMaybeTruncated = true;
            report.warnings.push_back(
                fmt::format("printf output ({} lines, {} bytes) may have been cut off: the device printf buffer "
                            "is {} bytes; raise run.printf_buffer_bytes",
                            lines, report.printfOutput.size(), printfFifo_));
        }
    }

    // ---- outputs
    copyVariables(false);
    t0 = Clock::now();
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].direction != Direction::In)
            transfer_->download(device[i].pointer(), buffers[i].data.data(), buffers[i].data.byteSize(), stream,
                                buffers[i].name);
    report.timings.d2hMs = msSince(t0);

    // ---- warm-up and timed repeats on restored inputs (restoring is a device copy
    // from the pristine copies, outside the timed region)
    const int warmup = std::max(0, config.warmup);
    const int repeats = std::max(0, config.repeats);
    if (repeats > 0) {
        std::vector<Event> starts(static_cast<std::size_t>(repeats));
        std::vector<Event> stops(static_cast<std::size_t>(repeats));
        for (int rep = 0; rep < warmup + repeats; ++rep) {
            for (std::size_t i = 0; i < buffers.size(); ++i)
                if (buffers[i].data.byteSize() > 0)
                    api.check(api.cuMemcpyDtoDAsync(device[i].pointer(), pristine[i].pointer(),
                                                    buffers[i].data.byteSize(), stream),
                              "cuMemcpyDtoDAsync", "restoring buffer " + buffers[i].name);
            copyVariables(true);
            const int timed = rep - warmup;
            if (timed >= 0)
                starts[std::size_t(timed)].record(stream);
            r = launchOnce();
            if (r == CUDA_SUCCESS) {
                Event& done = timed >= 0 ? stops[std::size_t(timed)] : stop;
                done.record(stream);
                r = waitFor(api, done.handle(), config.timeLimitSeconds);
            }
            if (faulted(r))
                return report;
        }
        for (int i = 0; i < repeats; ++i)
            report.timings.repeatMs.push_back(stops[std::size_t(i)].elapsedSince(starts[std::size_t(i)]));
        const TimingStats stats = TimingStats::compute(report.timings.repeatMs);
        report.timings.minMs = stats.min;
        report.timings.medianMs = stats.median;
        report.timings.meanMs = stats.mean;
        if (printf_) {
            // The repeats print again; their output is not the run's output.
            if (faulted(api.cuCtxSynchronize()))
                return report;
            (void)printf_->collect();
        }
    } else {
        report.timings.repeatMs = {report.timings.firstLaunchMs};
        report.timings.minMs = report.timings.medianMs = report.timings.meanMs = report.timings.firstLaunchMs;
    }
    return report;
}

} // namespace kw::cuda
