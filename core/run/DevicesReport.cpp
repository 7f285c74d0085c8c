#include "run/DevicesReport.hpp"

#include "cuda/DriverApi.hpp"
#include "run/DeviceSelector.hpp"

#include <algorithm>

namespace kw {

bool DevicesReport::hasGpu() const
{
    const std::string sim = DeviceSpec{DeviceSpec::Kind::Sim}.str();
    return std::any_of(devices.begin(), devices.end(), [&](const DeviceInfo& d) { return d.id != sim; });
}

DevicesReport DevicesReport::collect()
{
    DevicesReport r;
    r.devices = DeviceSelector::list();
    if (!cuda::DriverApi::available())
        r.noDriver = cuda::DriverApi::unavailableReason();
    return r;
}

} // namespace kw
