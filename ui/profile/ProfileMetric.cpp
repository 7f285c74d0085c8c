#include "profile/ProfileMetric.hpp"

#include <QObject>

#include <algorithm>

namespace kw {

namespace {
std::uint64_t above(std::uint64_t value, std::uint64_t floor) { return value > floor ? value - floor : 0; }

std::uint64_t sharedWavefronts(const ProfileCounters& c) { return c.shared_ld_wavefronts + c.shared_st_wavefronts; }

// The fewest wavefronts the shared requests could take. A 16-byte access needs four
// wavefronts per warp without any conflict, so the ideal, when counted, is the floor;
// without it one wavefront per request is.
std::uint64_t idealWavefronts(const ProfileCounters& c, const ProfileExtras& e)
{
    return e.shared_ideal_wavefronts > 0 ? e.shared_ideal_wavefronts : c.shared_ld_requests + c.shared_st_requests;
}
} // namespace

const std::vector<ProfileMetric>& ProfileMetrics::all()
{
    static const std::vector<ProfileMetric> metrics{ProfileMetric::Cost,
                                                    ProfileMetric::Instructions,
                                                    ProfileMetric::GlobalSectors,
                                                    ProfileMetric::ExcessSectors,
                                                    ProfileMetric::SharedWavefronts,
                                                    ProfileMetric::BankConflicts,
                                                    ProfileMetric::DivergentBranches,
                                                    ProfileMetric::LocalRequests,
                                                    ProfileMetric::AtomicRequests};
    return metrics;
}

QString ProfileMetrics::name(ProfileMetric m)
{
    switch (m) {
    case ProfileMetric::Cost: return QObject::tr("Cost");
    case ProfileMetric::Instructions: return QObject::tr("Instructions");
    case ProfileMetric::GlobalSectors: return QObject::tr("Global sectors");
    case ProfileMetric::ExcessSectors: return QObject::tr("Excess sectors");
    case ProfileMetric::SharedWavefronts: return QObject::tr("Shared wavefronts");
    case ProfileMetric::BankConflicts: return QObject::tr("Bank conflicts");
    case ProfileMetric::DivergentBranches: return QObject::tr("Divergent branches");
    case ProfileMetric::LocalRequests: return QObject::tr("Local memory");
    case ProfileMetric::AtomicRequests: return QObject::tr("Atomics");
    }
    return {};
}

QString ProfileMetrics::description(ProfileMetric m)
{
    switch (m) {
    case ProfileMetric::Cost:
        return QObject::tr("Warp instructions plus global sectors plus shared wavefronts: "
                           "a rough order of the lines, not a time.");
    case ProfileMetric::Instructions: return QObject::tr("Warp-level instructions executed (inst_executed).");
    case ProfileMetric::GlobalSectors: return QObject::tr("32-byte sectors global loads and stores moved.");
    case ProfileMetric::ExcessSectors:
        return QObject::tr("Global sectors past the fewest the bytes asked for could fit: "
                           "traffic an uncoalesced access wastes.");
    case ProfileMetric::SharedWavefronts:
        return QObject::tr("Shared memory wavefronts (passes through the 32 banks) of loads and stores.");
    case ProfileMetric::BankConflicts:
        return QObject::tr("Shared wavefronts past the fewest the requests could take: "
                           "passes spent on lanes that hit one bank with different words.");
    case ProfileMetric::DivergentBranches: return QObject::tr("Branches whose active lanes went different ways.");
    case ProfileMetric::LocalRequests:
        return QObject::tr("Local memory loads and stores: register spills and arrays on the stack.");
    case ProfileMetric::AtomicRequests: return QObject::tr("Atomic operations (warp-level requests).");
    }
    return {};
}

std::uint64_t ProfileMetrics::value(ProfileMetric m, const ProfileCounters& c, const ProfileExtras& e)
{
    const std::uint64_t sectors = c.global_ld_sectors + c.global_st_sectors;
    switch (m) {
    case ProfileMetric::Cost: return c.inst_executed + sectors + sharedWavefronts(c);
    case ProfileMetric::Instructions: return c.inst_executed;
    case ProfileMetric::GlobalSectors: return sectors;
    case ProfileMetric::ExcessSectors:
        // Without an ideal there is nothing to compare against: no excess is claimed.
        return e.global_ld_ideal_sectors + e.global_st_ideal_sectors > 0
            ? above(c.global_ld_sectors, e.global_ld_ideal_sectors)
                + above(c.global_st_sectors, e.global_st_ideal_sectors)
            : 0;
    case ProfileMetric::SharedWavefronts: return sharedWavefronts(c);
    case ProfileMetric::BankConflicts: return above(sharedWavefronts(c), idealWavefronts(c, e));
    case ProfileMetric::DivergentBranches: return c.divergent_branches;
    case ProfileMetric::LocalRequests: return c.local_ld_requests + c.local_st_requests;
    case ProfileMetric::AtomicRequests: return c.atomic_requests;
    }
    return 0;
}

std::uint64_t ProfileMetrics::maximum(ProfileMetric m, const std::vector<LineProfile>& lines)
{
    std::uint64_t top = 0;
    for (const LineProfile& l : lines)
        top = std::max(top, value(m, l));
    return top;
}

} // namespace kw
