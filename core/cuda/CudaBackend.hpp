#pragma once
// Runs kernels on a GPU through the driver API (backend "cuda").
#include "launch/Backend.hpp"

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <string>

namespace kw {
class PrintfCapture;
} // namespace kw

namespace kw::cuda {

class Context;
class Module;
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

    // After a sticky fault or a timeout every later driver call fails.
    bool usable() const noexcept override { return !poisoned_; }
    // After a timeout the kernel may still be running.
    bool stillRunning() const noexcept override { return hung_; }
    // The device printf FIFO size can only be set before the first launch.
    bool canUsePrintfBuffer(std::size_t bytes) const noexcept override;

private:
    struct Loaded;
    const Loaded& load(const KernelImage& kernel, double& loadMs);

    int ordinal_;
    DeviceInfo info_;
    PrintfCapture* printf_;
    std::unique_ptr<Context> context_;
    std::unique_ptr<Stream> stream_;
    std::unique_ptr<StagedTransfer> transfer_;
    std::unique_ptr<Loaded> loaded_;      // the last module, reused while the image is unchanged
    std::size_t printfFifo_ = 0;          // as the driver reports it
    std::size_t printfFifoRequested_ = 0; // as last asked for (the driver may round)
    bool launchedAny_ = false;
    bool poisoned_ = false;
    bool hung_ = false;
};

} // namespace kw::cuda
