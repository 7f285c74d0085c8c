#pragma once
#include "launch/LaunchTypes.hpp"

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
    // Validates against limits, launches once (buffers then hold the outputs), then
    // warm-up and timed repeats on restored inputs. A fault is reported in the result,
    // not thrown; machinery failures throw kw::Error.
    virtual LaunchReport launch(const KernelImage& kernel, std::vector<BufferArg>& buffers,
                                const std::vector<LaunchArg>& args, const LaunchConfig& config) = 0;
};

} // namespace kw
