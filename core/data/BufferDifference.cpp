#include "data/BufferDifference.hpp"

#include "util/Error.hpp"

#include <cmath>

namespace kw {

BufferDifference BufferDifference::of(const HostBuffer& before, const HostBuffer& after)
{
    if (before.count() != after.count())
        throw Error(ErrorCategory::Usage,
                    "the buffers differ in length (" + std::to_string(before.count()) + " and "
                        + std::to_string(after.count()) + " elements)");
    BufferDifference d;
    const std::size_t n = before.count();
    d.values = HostBuffer(DType::F64, n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = before.at(i), y = after.at(i);
        const bool same = x == y || (std::isnan(x) && std::isnan(y));
        const double diff = same ? 0.0 : y - x;
        d.values.set(i, std::isnan(x) && std::isnan(y) ? std::nan("") : diff);
        if (same)
            continue;
        ++d.differing;
        if (std::isnan(diff)) {
            ++d.notANumber;
        } else if (std::fabs(diff) > d.largest) {
            d.largest = std::fabs(diff);
            d.largestAt = i;
        }
    }
    return d;
}

std::vector<std::size_t> BufferDifference::place(std::size_t index, const std::vector<std::size_t>& shape)
{
    std::vector<std::size_t> out(shape.size(), 0);
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::size_t dim = shape[k] ? shape[k] : 1;
        out[k] = index % dim;
        index /= dim;
    }
    return out;
}

} // namespace kw
