#include "launch/TimingStats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kw {

double TimingStats::quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double pos = q * double(sorted.size() - 1);
    const std::size_t lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

double TimingStats::medianCoverage(std::size_t n, std::size_t r)
{
    // P(r <= B < n+1-r) for B ~ Binomial(n, 1/2): the number of samples below the
    // true median. Summed in logs so n in the thousands does not overflow.
    if (n == 0 || r == 0 || 2 * r > n)
        return 0;
    double coverage = 0;
    for (std::size_t i = r; i + r <= n; ++i)
        coverage += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1)
                             - double(n) * std::log(2.0));
    return std::min(1.0, coverage);
}

TimingStats TimingStats::compute(std::vector<double> samples)
{
    TimingStats s;
    s.count = samples.size();
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.median = quantile(samples, 0.5);
    s.q1 = quantile(samples, 0.25);
    s.q3 = quantile(samples, 0.75);
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());

    const std::size_t n = samples.size();
    // The widest interval, [min, max], unless a narrower one covers enough. Narrowing from
    // r to r + 1 drops the ranks r and n - r, equally likely: one term per step, so tens of
    // thousands of repeats (the simulator's, in its time budget) take microseconds, not the
    // seconds that summing every coverage afresh took.
    const double logHalfPowN = double(n) * std::log(0.5);
    const auto rankProbability = [&](std::size_t i) {
        return std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1)
                        + logHalfPowN);
    };
    std::size_t r = 1;
    double coverage = medianCoverage(n, 1);
    while (2 * (r + 1) <= n) {
        const double narrower = coverage - 2 * rankProbability(r);
        if (narrower < kCiLevel)
            break;
        coverage = narrower;
        ++r;
    }
    s.ciLow = samples[r - 1];
    s.ciHigh = samples[n - r];
    s.ciLevel = n == 1 ? 0 : std::min(1.0, coverage);
    return s;
}

} // namespace kw
