#pragma once
// Theoretical occupancy of one kernel launch on one device: how many blocks
// fit on a multiprocessor given threads, shared memory and registers.
#include "launch/LaunchTypes.hpp"

#include <string>

namespace kw {

struct Occupancy {
    int blocksPerSm = 0;
    int activeWarps = 0;
    int maxWarps = 0;
    double fraction = 0;   // activeWarps / maxWarps
    std::string limitedBy; // "threads", "shared memory", "registers", "blocks"

    // registersPerThread <= 0: not known, registers are not a limit.
    static Occupancy compute(const DeviceLimits& limits, std::uint64_t threadsPerBlock, std::size_t sharedBytesPerBlock,
                             int registersPerThread);

    // Registers one block takes from its multiprocessor: allocated per warp, in units
    // of 256 (every architecture since Maxwell).
    static std::uint64_t registersPerBlock(std::uint64_t threadsPerBlock, int registersPerThread, int warpSize);
};

} // namespace kw
