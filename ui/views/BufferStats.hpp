#pragma once
// Summary numbers and a histogram of a buffer's finite values, one pass each.
#include <cstddef>
#include <vector>

namespace kw {

class HostBuffer;

struct BufferStats {
    std::size_t count = 0;  // all elements
    std::size_t finite = 0; // elements that are not NaN or infinite
    double min = 0, max = 0, mean = 0;

    static BufferStats compute(const HostBuffer& b);
    // Counts of finite values in `bins` equal bins over [lo, hi]; hi falls in the last bin.
    static std::vector<std::size_t> histogram(const HostBuffer& b, double lo, double hi, int bins);
};

} // namespace kw
