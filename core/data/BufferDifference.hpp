#pragma once
// The element-by-element difference of two buffers of the same count (a later run's
// minus an earlier one's), with what a reader asks first: how many elements differ,
// the largest difference and where it is.
#include "data/HostBuffer.hpp"

#include <cstddef>
#include <vector>

namespace kw {

struct BufferDifference {
    HostBuffer values;          // f64: after − before, element by element (NaN where either is NaN)
    std::size_t differing = 0;  // elements that are not equal (two NaNs count as equal)
    std::size_t notANumber = 0; // of those, the ones whose difference is no number (a NaN in one run only)
    double largest = 0;         // the largest |after − before| among the numbers
    std::size_t largestAt = 0;  // its index (the first such)

    // Both buffers must have the same count; throws kw::Error(Usage) otherwise.
    static BufferDifference of(const HostBuffer& before, const HostBuffer& after);
    // The place of a flat index in a shape (C order, last dimension fastest): {row, col} for 2-D.
    static std::vector<std::size_t> place(std::size_t index, const std::vector<std::size_t>& shape);
};

} // namespace kw
