#pragma once
#include <vector>

namespace kw {

// Summary of repeated timings.
struct TimingStats {
    double min = 0, median = 0, mean = 0;
    static TimingStats of(std::vector<double> values);
};

} // namespace kw
