#include "run/ProfileRatios.hpp"

namespace kw {

namespace {
std::optional<double> ratio(std::uint64_t a, std::uint64_t b)
{
    if (b == 0)
        return std::nullopt;
    return double(a) / double(b);
}
} // namespace

std::optional<double> ProfileRatios::sectorsPerRequest(const ProfileCounters& c)
{
    return ratio(globalSectors(c), globalRequests(c));
}

std::optional<double> ProfileRatios::idealSectorsPerRequest(const ProfileCounters& c, const ProfileExtras& e)
{
    const std::uint64_t ideal = e.global_ld_ideal_sectors + e.global_st_ideal_sectors;
    if (ideal == 0)
        return std::nullopt;
    return ratio(ideal, globalRequests(c));
}

std::optional<double> ProfileRatios::conflictWays(const ProfileCounters& c, const ProfileExtras& e)
{
    const std::uint64_t fewest = e.shared_ideal_wavefronts > 0 ? e.shared_ideal_wavefronts : sharedRequests(c);
    return ratio(sharedWavefronts(c), fewest);
}

std::optional<double> ProfileRatios::branchEfficiency(const ProfileCounters& c, const ProfileExtras& e)
{
    if (e.branches == 0)
        return std::nullopt;
    return 1.0 - double(c.divergent_branches) / double(e.branches);
}

std::optional<double> ProfileRatios::activeLanes(const ProfileCounters& c)
{
    return ratio(c.thread_inst_executed, c.inst_executed);
}

} // namespace kw
