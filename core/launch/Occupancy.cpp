#include "launch/Occupancy.hpp"

#include <algorithm>

namespace kw {

Occupancy Occupancy::compute(const DeviceLimits& limits, std::uint64_t threadsPerBlock, std::size_t sharedBytesPerBlock,
                             int registersPerThread)
{
    Occupancy o;
    const int warp = std::max(1, limits.warpSize);
    o.maxWarps = std::max(1, limits.maxThreadsPerMultiprocessor / warp);
    if (threadsPerBlock == 0 || threadsPerBlock > std::uint64_t(limits.maxThreadsPerBlock))
        return o;
    const int warpsPerBlock = int((threadsPerBlock + warp - 1) / warp);
    constexpr int maxBlocksPerSm = 32; // every architecture since Maxwell
    int blocks = maxBlocksPerSm;
    o.limitedBy = "blocks per SM";
    auto limit = [&](int n, const char* why) {
        if (n < blocks) {
            blocks = n;
            o.limitedBy = why;
        }
    };
    limit(o.maxWarps / warpsPerBlock, "threads per SM");
    // The per-SM shared capacity is not in DeviceLimits; the opt-in per-block
    // maximum is the closest bound it carries.
    if (sharedBytesPerBlock > 0)
        limit(int(limits.sharedPerBlockOptin / sharedBytesPerBlock), "shared memory");
    // A multiprocessor has as many registers as one block may use (64 Ki on every
    // architecture since Maxwell); DeviceLimits carries the per-block figure.
    if (registersPerThread > 0)
        limit(int(std::uint64_t(limits.maxRegistersPerBlock)
                  / registersPerBlock(threadsPerBlock, registersPerThread, warp)),
              "registers");
    o.blocksPerSm = std::max(0, blocks);
    o.activeWarps = o.blocksPerSm * warpsPerBlock;
    o.fraction = double(o.activeWarps) / o.maxWarps;
    return o;
}

std::uint64_t Occupancy::registersPerBlock(std::uint64_t threadsPerBlock, int registersPerThread, int warpSize)
{
    constexpr std::uint64_t unit = 256;
    const std::uint64_t warp = std::uint64_t(std::max(1, warpSize));
    const std::uint64_t warps = (threadsPerBlock + warp - 1) / warp;
    const std::uint64_t perWarp = (std::uint64_t(std::max(0, registersPerThread)) * warp + unit - 1) / unit * unit;
    return warps * perWarp;
}

} // namespace kw
