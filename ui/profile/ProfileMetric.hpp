#pragma once
// The counters a source line can be coloured and sorted by: each one's name, what it
// counts and its value for a line. The figures the core derives later (docs/profile.md)
// replace none of these: they are what the counters say, summed the way the table and
// the editor margin show them.
#include "launch/KernelProfile.hpp"

#include <QString>

#include <cstdint>
#include <vector>

namespace kw {

enum class ProfileMetric {
    Cost,             // instructions + global sectors + shared wavefronts: an order, not a time
    Instructions,     // inst_executed
    GlobalSectors,    // global load and store sectors
    ExcessSectors,    // sectors past the fewest the requests' bytes could fit
    SharedWavefronts, // shared load and store wavefronts
    BankConflicts,    // wavefronts past the fewest the requests could take
    DivergentBranches,
    LocalRequests, // local memory: register spills and stack arrays
    AtomicRequests,
};

class ProfileMetrics {
public:
    static const std::vector<ProfileMetric>& all();
    static QString name(ProfileMetric m);        // the chooser's entry and the table's column
    static QString description(ProfileMetric m); // what it counts, for a tooltip
    static std::uint64_t value(ProfileMetric m, const ProfileCounters& c, const ProfileExtras& e);
    static std::uint64_t value(ProfileMetric m, const LineProfile& line)
    {
        return value(m, line.counters, line.extras);
    }
    // The largest value over the lines: the top of the colour scale.
    static std::uint64_t maximum(ProfileMetric m, const std::vector<LineProfile>& lines);
};

} // namespace kw
