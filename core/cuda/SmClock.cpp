#include "cuda/SmClock.hpp"

#include "util/DynamicLibrary.hpp"

#include <mutex>

namespace kw::cuda {

namespace {

// The few NVML entry points used, as nvml.h declares them (the header is not part of
// the toolkit's include folder; these signatures are NVML's stable ABI).
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1; // NVML_CLOCK_SM
using NvmlDevice = void*;

struct Nvml {
    DynamicLibrary library;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*byBusId)(const char*, NvmlDevice*) = nullptr;
    NvmlReturn (*clock)(NvmlDevice, int, unsigned*) = nullptr;
    NvmlReturn (*maxClock)(NvmlDevice, int, unsigned*) = nullptr;
    bool ready = false;
};

const Nvml& nvml()
{
    static Nvml n;
    static std::once_flag once;
    std::call_once(once, [] {
        n.library = DynamicLibrary::openFirst({"libnvidia-ml.so.1", "libnvidia-ml.so"});
        if (!n.library.isLoaded())
            return;
        n.init = reinterpret_cast<decltype(n.init)>(n.library.symbol("nvmlInit_v2"));
        n.byBusId = reinterpret_cast<decltype(n.byBusId)>(n.library.symbol("nvmlDeviceGetHandleByPciBusId_v2"));
        n.clock = reinterpret_cast<decltype(n.clock)>(n.library.symbol("nvmlDeviceGetClockInfo"));
        n.maxClock = reinterpret_cast<decltype(n.maxClock)>(n.library.symbol("nvmlDeviceGetMaxClockInfo"));
        // nvmlInit is reference counted and cheap to leave initialised for the process.
        n.ready = n.init && n.byBusId && n.clock && n.maxClock && n.init() == kNvmlSuccess;
    });
    return n;
}

} // namespace

SmClock::SmClock(const std::string& pciBusId)
{
    const Nvml& n = nvml();
    NvmlDevice d = nullptr;
    if (n.ready && !pciBusId.empty() && n.byBusId(pciBusId.c_str(), &d) == kNvmlSuccess)
        device_ = d;
}

int SmClock::currentMhz() const
{
    unsigned mhz = 0;
    if (!device_ || nvml().clock(device_, kNvmlClockSm, &mhz) != kNvmlSuccess)
        return 0;
    return int(mhz);
}

int SmClock::maxMhz() const
{
    unsigned mhz = 0;
    if (!device_ || nvml().maxClock(device_, kNvmlClockSm, &mhz) != kNvmlSuccess)
        return 0;
    return int(mhz);
}

} // namespace kw::cuda
