#pragma once
// The counters in words: the kernel's totals for the top of the Profile view, one
// line's counters for a tooltip, and the short numbers the editor margin has room for.
#include "launch/KernelProfile.hpp"

#include <QString>

#include <optional>

namespace kw {

class ProfileSummary {
public:
    // Rich text, one sentence per kind of work; kinds the kernel did not do are left out.
    static QString totals(const KernelProfile& profile);
    // Rich text: a small table of the line's non-zero counters and their ratios.
    static QString lineTooltip(const LineProfile& line);
    // At most five characters: 950, 9.5k, 12k, 1.2M.
    static QString compact(std::uint64_t value);
    static QString count(std::uint64_t value);                                  // 12,345
    static QString ratio(const std::optional<double>& value, int decimals = 1); // "" when empty
    static QString percent(const std::optional<double>& share);                 // "70 %", "" when empty
};

} // namespace kw
