#include "views/BufferStats.hpp"

#include "views/BufferValues.hpp"

#include <cmath>

namespace kw {

BufferStats BufferStats::compute(const HostBuffer& b)
{
    BufferStats s;
    s.count = b.count();
    double sum = 0;
    visitValues(b, [&](auto get) {
        for (std::size_t i = 0; i < s.count; ++i) {
            const double v = get(i);
            if (!std::isfinite(v))
                continue;
            if (s.finite == 0) {
                s.min = s.max = v;
            } else {
                s.min = v < s.min ? v : s.min;
                s.max = v > s.max ? v : s.max;
            }
            sum += v;
            ++s.finite;
        }
    });
    s.mean = s.finite ? sum / double(s.finite) : 0;
    return s;
}

std::vector<std::size_t> BufferStats::histogram(const HostBuffer& b, double lo, double hi, int bins)
{
    std::vector<std::size_t> counts(std::size_t(bins > 0 ? bins : 1), 0);
    const double width = hi > lo ? (hi - lo) / double(counts.size()) : 1.0;
    const std::size_t n = b.count();
    visitValues(b, [&](auto get) {
        for (std::size_t i = 0; i < n; ++i) {
            const double v = get(i);
            if (!std::isfinite(v) || v < lo || v > hi)
                continue;
            std::size_t bin = std::size_t((v - lo) / width);
            if (bin >= counts.size())
                bin = counts.size() - 1;
            ++counts[bin];
        }
    });
    return counts;
}

} // namespace kw
