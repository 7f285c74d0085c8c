#pragma once
#include "data/HostBuffer.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace kw {

// A host buffer with its shape (C order, last dimension fastest), as files hold it.
struct NdArray {
    HostBuffer data;
    std::vector<std::size_t> shape; // {count} for 1-D; {} for a 0-d scalar

    // The number of elements the shape describes (1 for a 0-d shape).
    static std::size_t elementCount(const std::vector<std::size_t>& shape);
    // The product of the dimensions, or nullopt when it does not fit in 64 bits.
    static std::optional<std::size_t> checkedElementCount(const std::vector<std::size_t>& shape);
};

// The data converted to dtype: bytes are copied when the element types match
// (u16 bits stand for bf16, as .npy stores bf16), otherwise element by element.
HostBuffer convertTo(const HostBuffer& data, DType dtype);
// The same, taking the data: when the element types match its bytes are moved, not copied.
HostBuffer convertTo(HostBuffer&& data, DType dtype);

} // namespace kw
