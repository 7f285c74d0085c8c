#include "launch/WarmupRule.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kw {

bool WarmupRule::settled(const std::vector<double>& timesMs) const
{
    if (timesMs.size() < kWindow)
        return false;
    std::vector<double> last(timesMs.end() - kWindow, timesMs.end());
    std::sort(last.begin(), last.end());
    const double median = last[kWindow / 2];
    const double tolerance = std::max(kRelative * median, kAbsoluteMs);
    return std::all_of(last.begin(), last.end(), [&](double t) { return std::abs(t - median) <= tolerance; });
}

bool WarmupRule::more(const std::vector<double>& timesMs) const
{
    if (minimum_ == 0)
        return false;
    if (timesMs.size() < minimum_)
        return true;
    if (timesMs.size() >= kMaxRuns || std::accumulate(timesMs.begin(), timesMs.end(), 0.0) >= kMaxTotalMs)
        return false;
    return !settled(timesMs);
}

} // namespace kw
