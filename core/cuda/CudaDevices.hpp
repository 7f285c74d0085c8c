#pragma once
// Enumerates the GPUs the driver sees and queries their limits.
#include "launch/LaunchTypes.hpp"

#include <string>
#include <vector>

namespace kw::cuda {

class CudaDevices {
public:
    // 0 when there is no driver or no GPU; never throws.
    static int count() noexcept;
    // Throws kw::Error(NoDevice) without a driver, kw::Error(Usage) for a bad ordinal.
    static DeviceInfo query(int ordinal);
    static std::vector<DeviceInfo> list();
    // The CUBIN target of a GPU: "sm_90" for compute capability 9.0.
    static std::string cubinArch(const DeviceInfo& device);
};

} // namespace kw::cuda
