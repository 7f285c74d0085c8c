#include "launch/TimingStats.hpp"

#include <algorithm>
#include <numeric>

namespace kw {

TimingStats TimingStats::of(std::vector<double> values)
{
    TimingStats s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.min = values.front();
    s.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(n);
    return s;
}

} // namespace kw
