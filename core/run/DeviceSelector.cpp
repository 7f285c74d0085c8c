#include "run/DeviceSelector.hpp"

#include "cuda/CudaBackend.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "util/Error.hpp"

#if __has_include("sim/SimBackend.hpp")
#include "sim/SimBackend.hpp"
#define KW_HAVE_SIM 1
#else
#define KW_HAVE_SIM 0
#endif

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
        throw Error(ErrorCategory::Usage,
                    "device \"" + text + "\" is not a device name (use N, cuda:N or sim)");
    return {DeviceSpec::Kind::Cuda, ordinal};
}

bool DeviceSelector::simAvailable() { return KW_HAVE_SIM != 0; }

DeviceSpec DeviceSelector::defaultDevice()
{
    if (CudaDevices::count() > 0)
        return {DeviceSpec::Kind::Cuda, 0};
    if (simAvailable())
        return {DeviceSpec::Kind::Sim, 0};
    const std::string why = DriverApi::available() ? std::string("the driver reports no GPU")
                                                   : DriverApi::unavailableReason();
    throw Error(ErrorCategory::NoDevice, "no GPU to run on: " + why);
}

std::unique_ptr<Backend> DeviceSelector::open(const DeviceSpec& spec, PrintfCapture* printf)
{
    if (spec.kind == DeviceSpec::Kind::Sim) {
#if KW_HAVE_SIM
        return std::make_unique<SimBackend>();
#else
        throw Error(ErrorCategory::NoDevice, "the sim backend is not part of this build");
#endif
    }
    if (!DriverApi::available())
        throw Error(ErrorCategory::NoDevice, "no GPU to run on: " + DriverApi::unavailableReason());
    return std::make_unique<CudaBackend>(spec.ordinal, printf);
}

std::vector<DeviceInfo> DeviceSelector::list()
{
    std::vector<DeviceInfo> out = CudaDevices::list();
#if KW_HAVE_SIM
    out.push_back(SimBackend().device());
#endif
    return out;
}

} // namespace kw
