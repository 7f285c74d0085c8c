#include "run/DevicesText.hpp"

#include "run/DeviceSelector.hpp"

#include <fmt/format.h>

namespace kw {

std::string DevicesText::format(const DevicesReport& report)
{
    std::string text;
    if (report.noDriver)
        text += fmt::format("No GPU: {}\n", *report.noDriver);
    else if (!report.hasGpu())
        text += "No GPU: the NVIDIA driver reports no device\n";
    const std::string sim = DeviceSpec{DeviceSpec::Kind::Sim}.str();
    for (const auto& d : report.devices) {
        const auto& l = d.limits;
        text += fmt::format("{}  {}", d.id, d.name);
        if (d.id == sim) {
            text += "\n";
            continue;
        }
        text += fmt::format("  compute {}.{}  {:.1f} GiB  {} SMs\n", d.ccMajor, d.ccMinor,
                            double(d.totalMemory) / (1 << 30), l.multiprocessors);
        text += fmt::format("        max threads/block {}  block {}  grid {}  shared/block {} B (opt-in {} B)  "
                            "registers/block {}  warp {}",
                            l.maxThreadsPerBlock, toString(l.maxBlock), toString(l.maxGrid), l.sharedPerBlock,
                            l.sharedPerBlockOptin, l.maxRegistersPerBlock, l.warpSize);
        if (d.memoryBandwidthGBs > 0)
            text += fmt::format("  peak bandwidth {:.0f} GB/s", d.memoryBandwidthGBs);
        text += "\n";
    }
    return text;
}

} // namespace kw
