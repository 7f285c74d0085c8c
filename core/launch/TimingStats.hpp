#pragma once
// Order statistics of repeated timings: what the backends report and the timings
// panel draws.
#include <cstddef>
#include <vector>

namespace kw {

struct TimingStats {
    std::size_t count = 0;
    double min = 0, max = 0, median = 0, mean = 0;
    double q1 = 0, q3 = 0; // quartiles (linear interpolation, as numpy's default)

    double iqr() const { return q3 - q1; }
    static TimingStats compute(std::vector<double> samples);
    static double quantile(const std::vector<double>& sorted, double q);
};

} // namespace kw
