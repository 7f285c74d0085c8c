#pragma once
// A goal on the simulator's counters (docs/profile.md), graded without a GPU: "at most
// 1.1 sectors per request", "no bank conflicts", "at most 2 global reads per thread".
#include "launch/KernelProfile.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::grade {

struct GoalResult {
    std::string metric;
    double value = 0;
    bool met = false;
    std::string text; // "1.00 sectors per request (goal: at most 1.1)"
};

class CounterGoal {
public:
    std::string metric;
    std::optional<double> atMost, atLeast;
    std::vector<std::string> cases; // the cases it is graded on; empty: every case

    // The metrics a goal may name, and what each measures.
    static const std::vector<std::pair<std::string, std::string>>& metrics();
    static bool known(const std::string& metric);

    // The metric over a launch's counters; `threads` is the threads launched.
    static double measure(const std::string& metric, const KernelProfile& profile, std::uint64_t threads);
    GoalResult grade(const KernelProfile& profile, std::uint64_t threads) const;
    bool appliesTo(const std::string& caseName) const;
    std::string describe() const; // "global_sectors_per_request at most 1.1"
};

} // namespace kw::grade
