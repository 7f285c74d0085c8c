#pragma once
#include "data/DType.hpp"
#include "data/HostBytes.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kw {

// A typed, contiguous host array.
class HostBuffer {
public:
    HostBuffer() = default;
    // Every element zero (zero bits are 0 in every dtype).
    HostBuffer(DType dtype, std::size_t count);
    // Elements left unwritten: only for a buffer that is filled whole next (a file's or
    // a payload's bytes, a download), so its pages are written once.
    static HostBuffer uninitialised(DType dtype, std::size_t count);
    // These bytes as elements; their size must be a whole number of elements.
    HostBuffer(DType dtype, HostBytes bytes);

    DType dtype() const noexcept { return dtype_; }
    std::size_t count() const noexcept { return count_; }
    std::size_t byteSize() const noexcept { return bytes_.size(); }
    std::byte* data() noexcept { return bytes_.data(); }
    const std::byte* data() const noexcept { return bytes_.data(); }

    double at(std::size_t i) const; // element i as double
    void set(std::size_t i, double v);

    HostBytes& bytes() noexcept { return bytes_; }
    const HostBytes& bytes() const noexcept { return bytes_; }

private:
    DType dtype_ = DType::F32;
    std::size_t count_ = 0;
    HostBytes bytes_;
};

} // namespace kw
