#pragma once
// Ratios of one line's (or the kernel's) counters, as the profile table's derived columns show
// them. Each is empty when the line has nothing to divide by (no global request, no
// branch), so the table can leave the cell blank instead of showing 0.
#include "launch/KernelProfile.hpp"

#include <optional>

namespace kw {

class ProfileRatios {
public:
    // Global load and store sectors per request, and the fewest the requests' bytes
    // could fit (4 for 32 lanes of 4 bytes).
    static std::optional<double> sectorsPerRequest(const ProfileCounters& c);
    static std::optional<double> idealSectorsPerRequest(const ProfileCounters& c, const ProfileExtras& e);
    // Shared wavefronts per wavefront the requests needed at least: 1 means no bank
    // conflict, 32 a 32-way conflict. The fewest is the counted ideal, else one per request.
    static std::optional<double> conflictWays(const ProfileCounters& c, const ProfileExtras& e);
    // 1 - divergent / branches.
    static std::optional<double> branchEfficiency(const ProfileCounters& c, const ProfileExtras& e);
    // Active lanes per warp instruction, of 32.
    static std::optional<double> activeLanes(const ProfileCounters& c);

    static std::uint64_t globalRequests(const ProfileCounters& c)
    {
        return c.global_ld_requests + c.global_st_requests;
    }
    static std::uint64_t globalSectors(const ProfileCounters& c) { return c.global_ld_sectors + c.global_st_sectors; }
    static std::uint64_t sharedRequests(const ProfileCounters& c)
    {
        return c.shared_ld_requests + c.shared_st_requests;
    }
    static std::uint64_t sharedWavefronts(const ProfileCounters& c)
    {
        return c.shared_ld_wavefronts + c.shared_st_wavefronts;
    }
    static std::uint64_t localRequests(const ProfileCounters& c) { return c.local_ld_requests + c.local_st_requests; }
};

} // namespace kw
