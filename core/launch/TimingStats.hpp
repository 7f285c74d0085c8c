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
    // Distribution-free confidence interval of the median: the order statistics
    // x(r) and x(n+1-r) with the largest r whose binomial coverage is at least 95 %.
    // With fewer than 6 samples no such r exists: the interval is [min, max] and
    // ciLevel says the coverage it really has (1 - 2^(1-n)).
    double ciLow = 0, ciHigh = 0, ciLevel = 0;

    static constexpr double kCiLevel = 0.95;

    double iqr() const { return q3 - q1; }
    static TimingStats compute(std::vector<double> samples);
    static double quantile(const std::vector<double>& sorted, double q);
    // Coverage of [x(r), x(n+1-r)] (1-based ranks) for the median of n samples.
    static double medianCoverage(std::size_t n, std::size_t r);
};

} // namespace kw
