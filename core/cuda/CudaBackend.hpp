#pragma once
// Runs kernels on a GPU through the driver API (backend "cuda").
#include "launch/Backend.hpp"

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace kw {
class PrintfCapture;
} // namespace kw

namespace kw::cuda {

class Context;
class Event;
class L2Flusher;
class Module;
class SmClock;
class Stream;
class StagedTransfer;

class CudaBackend : public Backend {
public:
    // Retains device `ordinal`'s primary context. `printf` (may be null) collects the
    // device printf text; it must have been installed before the driver was loaded.
    explicit CudaBackend(int ordinal = 0, PrintfCapture* printf = nullptr);
    ~CudaBackend() override;
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    DeviceInfo device() const override { return info_; }
    std::string compileArch() const override;
    LaunchReport launch(const KernelImage& kernel, std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;
    std::unique_ptr<ResidentBuffers> residentBuffers() override;

    // After a sticky fault or a timeout every later driver call fails.
    bool usable() const noexcept override { return !poisoned_; }
    // After a timeout the kernel may still be running.
    bool stillRunning() const noexcept override { return hung_; }
    // The device printf FIFO size can only be set before the first launch.
    bool canUsePrintfBuffer(std::size_t bytes) const noexcept override;

private:
    friend class CudaResidentBuffers; // launches through the steps below
    friend class CudaGraphPass;       // and records them into a graph

    struct LoadedModule;
    // A kernel of the loaded module, with what its launches are checked against.
    struct Loaded {
        const Module* module = nullptr;
        CUfunction function = nullptr;
        bool hasTrap = false;
        int maxThreads = 0, staticShared = 0, registers = 0, localBytes = 0;
    };
    // A buffer on the device as a launch sees it.
    struct Placed {
        std::string name, global;
        Direction direction = Direction::InOut;
        std::size_t bytes = 0;
        CUdeviceptr pointer = 0;
        CUdeviceptr variable = 0; // the module variable it fills, when `global` names one
    };

    // The steps of a launch, in order.
    void checkUsable() const;
    const Loaded& load(const KernelImage& kernel, double& loadMs, bool freshForAnotherKernel);
    // Refuses what cannot run (an unusable context, another printf buffer size, limits,
    // arguments that do not fit the parameters) and loads the module (kept for every
    // kernel of the image when `resident`).
    const Loaded& prepare(const KernelImage& kernel, const std::vector<LaunchArg>& args, std::size_t bufferCount,
                          const LaunchConfig& config, LaunchReport& report, bool resident);
    void findVariables(const Loaded& fn, std::vector<Placed>& placed) const;
    void copyVariables(const std::vector<Placed>& placed, bool intoModule) const;
    static std::vector<void*> parameters(const std::vector<LaunchArg>& args, const std::vector<Placed>& placed,
                                         std::vector<CUdeviceptr>& pointers);
    CUresult launchOnce(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                        std::vector<void*>& params);
    // Records `start`, launches, records `stop` and waits for it up to the time limit.
    CUresult launchAndWait(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                           std::vector<void*>& params, Event& start, Event& stop);
    // True, with the fault in the report, when `r` is not success. A kernel that
    // outlived its limit may still use the memory: `abandonMemory` lets go of it unfreed.
    // Waits for `event` up to `limitSeconds` without blocking in the driver.
    static CUresult waitForEvent(CUevent event, double limitSeconds);
    bool faulted(CUresult r, const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                 LaunchReport& report, const std::function<void()>& abandonMemory);
    void collectPrintf(LaunchReport& report);
    // The warm-up and the timed repeats of a launch: `prepareRun` restores the inputs
    // before each one. False when one faulted (the report says how).
    bool timeRepeats(const Loaded& fn, const KernelImage& kernel, const LaunchConfig& config,
                     std::vector<void*>& params, LaunchReport& report, const std::function<void()>& prepareRun,
                     const std::function<void()>& abandonMemory);

    int ordinal_;
    DeviceInfo info_;
    PrintfCapture* printf_;
    std::unique_ptr<Context> context_;
    std::unique_ptr<Stream> stream_;
    std::unique_ptr<StagedTransfer> transfer_;
    std::unique_ptr<L2Flusher> l2_;
    std::unique_ptr<SmClock> smClock_;
    std::unique_ptr<LoadedModule> loaded_; // the last module, reused while the image is unchanged
    std::size_t printfFifo_ = 0;           // as the driver reports it
    std::size_t printfFifoRequested_ = 0;  // as last asked for (the driver may round)
    bool launchedAny_ = false;
    bool poisoned_ = false;
    bool hung_ = false;
};

} // namespace kw::cuda
