#include "run/DeviceSelector.hpp"

#include "cuda/CudaBackend.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "util/Error.hpp"

#include "sim/SimBackend.hpp"

#include <charconv>

namespace kw {

std::string DeviceSpec::str() const
{
    return kind == Kind::Sim ? std::string("sim") : "cuda:" + std::to_string(ordinal);
}

DeviceSpec DeviceSelector::parse(const std::string& text)
{
    if (text.empty())
        return defaultDevice();
    if (text == "sim")
        return {DeviceSpec::Kind::Sim, 0};
    std::string digits = text.rfind("cuda:", 0) == 0 ? text.substr(5) : text;
    int ordinal = -1;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() || ordinal < 0)
        throw Error(ErrorCategory::Usage, "device \"" + text + "\" is not a device name (use N, cuda:N or sim)");
    return {DeviceSpec::Kind::Cuda, ordinal};
}

DeviceSpec DeviceSelector::defaultDevice()
{
    if (cuda::CudaDevices::count() > 0)
        return {DeviceSpec::Kind::Cuda, 0};
    return {DeviceSpec::Kind::Sim, 0};
}

std::unique_ptr<Backend> DeviceSelector::open(const DeviceSpec& spec, PrintfCapture* printf)
{
    if (spec.kind == DeviceSpec::Kind::Sim)
        return std::make_unique<SimBackend>();
    if (!cuda::DriverApi::available())
        throw Error(ErrorCategory::NoDevice, "no GPU to run on: " + cuda::DriverApi::unavailableReason());
    return std::make_unique<cuda::CudaBackend>(spec.ordinal, printf);
}

std::vector<DeviceInfo> DeviceSelector::list()
{
    std::vector<DeviceInfo> out = cuda::CudaDevices::list();
    out.push_back(SimBackend().device());
    return out;
}

} // namespace kw
