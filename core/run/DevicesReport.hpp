#pragma once
// What `kwb-run devices` and the serve `devices` request report: every device, the
// GPUs first and then the simulator, and why there is no driver when there is none.
#include "launch/LaunchTypes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

struct DevicesReport {
    std::vector<DeviceInfo> devices;
    std::optional<std::string> noDriver; // why the NVIDIA driver could not be loaded

    // A device other than the simulator.
    bool hasGpu() const;

    // This machine's devices (DeviceSelector::list) and driver. Never throws for a
    // missing driver.
    static DevicesReport collect();
};

} // namespace kw
