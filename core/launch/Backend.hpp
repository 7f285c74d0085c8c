#pragma once
#include "launch/LaunchTypes.hpp"
#include "launch/ResidentBuffers.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kw {

// Executes one compiled kernel on prepared buffers. Implementations: CudaBackend
// (driver API) and SimBackend (PTX on the CPU).
class Backend {
public:
    virtual ~Backend() = default;
    virtual DeviceInfo device() const = 0;
    // The arch to compile for: "sm_90" for a GPU, a fixed "compute_XX" for the simulator.
    virtual std::string compileArch() const = 0;
    // The arch to compile a document for that asks for `documentArch` (options.arch;
    // empty: compileArch()). The simulator runs PTX of any number; a GPU runs its own
    // binaries and PTX up to its own number. kw::Error when this backend cannot run it.
    std::string archFor(const std::string& documentArch) const;
    // Validates against limits, launches once (buffers then hold the outputs), then
    // warm-up and timed repeats on restored inputs. A fault is reported in the result,
    // not thrown; machinery failures throw kw::Error.
    virtual LaunchReport launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                const std::vector<LaunchArg>& args, const LaunchConfig& config)
        = 0;
    // Buffers kept on this backend's device across launches (and the module with them,
    // while the image is unchanged). kw::Error(Usage) from a backend that cannot keep any.
    virtual std::unique_ptr<ResidentBuffers> residentBuffers();

    // What the process that owns the backend must know after a launch. The defaults
    // are the simulator's: a fault there is reported and leaves nothing behind, its
    // threads stop at the time limit, and it sizes the printf buffer for each launch.

    // False once a fault has left the device unusable for this process (every later
    // call would fail): the process must be replaced before the next job (serve
    // re-execs itself, the CLI exits).
    virtual bool usable() const noexcept { return true; }
    // A kernel may still be running (it outlived its time limit): the process must end
    // without touching the device again (_exit, exec).
    virtual bool stillRunning() const noexcept { return false; }
    // Whether a launch may ask for a device printf buffer of `bytes`; a GPU context
    // fixes the size at its first launch.
    virtual bool canUsePrintfBuffer([[maybe_unused]] std::size_t bytes) const noexcept { return true; }
};

} // namespace kw
