#pragma once
// Figures derived from a profile's counters, per line and per kernel (docs/profile.md):
// sectors per request against the ideal, bank-conflict ways, branch efficiency, and a
// cost to sort lines by.
#include "launch/KernelProfile.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kw {

struct ProfileFigures {
    // Global memory, per request: the sectors moved and the fewest the bytes asked for
    // could fit (both 0 without requests). excess: sectors / ideal (1 = ideal).
    double ldSectorsPerRequest = 0, ldIdealSectorsPerRequest = 0, ldExcess = 1;
    double stSectorsPerRequest = 0, stIdealSectorsPerRequest = 0, stExcess = 1;
    // Shared memory, per request: wavefronts ("ways"; a conflict-free 4-byte access is 1),
    // and wavefronts over the ideal (one per 128-byte phase: 1 = no bank conflict).
    double sharedLdWays = 0, sharedStWays = 0;
    double sharedLdExcess = 1, sharedStExcess = 1;
    std::uint64_t bankConflicts = 0;    // wavefronts - requests, loads and stores
    std::uint64_t excessWavefronts = 0; // wavefronts - ideal wavefronts
    double branchEfficiency = 1;        // 1 - divergent / branches; 1 without branches
    double activeLanes = 0;             // thread_inst_executed / inst_executed (of 32)
    double cost = 0;                    // see profileCost()
    double costShare = 0;               // of the kernel's cost (lines only; 1 for the totals)
};

// The cost of a line or kernel in warp-instruction issue slots, a rough time model to
// sort lines by (docs/profile.md): an SM issues 4 warp instructions per cycle, its shared
// memory serves 1 wavefront per cycle and its share of L2/DRAM bandwidth is some 16-32
// bytes per cycle, so
//   cost = inst_executed
//        + 4 x (shared wavefronts)                        1 cycle each
//        + 8 x (global sectors, loads and stores)         32 bytes at ~16 B/cycle
//        + 16 x (local requests)                          4 sectors each, mostly L1 hits
//        + 16 x (atomic requests)                         a round trip to L2
// The weights are deliberately coarse: the cost ranks lines, it predicts no time.
double profileCost(const ProfileCounters& c);

ProfileFigures figuresOf(const ProfileCounters& c, const ProfileExtras& x);
// The kernel's figures (costShare 1).
ProfileFigures kernelFigures(const KernelProfile& p);

struct LineFigures {
    const LineProfile* line = nullptr;
    ProfileFigures figures;
};

// The file most of the profile's executed instructions come from: the kernel's source.
std::string profileMainFile(const KernelProfile& p);

// Every line's figures, costliest first (ties in file/line order); at most `limit` (0: all).
std::vector<LineFigures> costliestLines(const KernelProfile& p, std::size_t limit = 0);

} // namespace kw
