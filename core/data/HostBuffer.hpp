#pragma once
#include "data/DType.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kw {

// A typed, contiguous host array.
class HostBuffer {
public:
    HostBuffer() = default;
    HostBuffer(DType dtype, std::size_t count);

    DType dtype() const noexcept { return dtype_; }
    std::size_t count() const noexcept { return count_; }
    std::size_t byteSize() const noexcept { return bytes_.size(); }
    std::byte* data() noexcept { return bytes_.data(); }
    const std::byte* data() const noexcept { return bytes_.data(); }

    double at(std::size_t i) const; // element i as double
    void set(std::size_t i, double v);

    std::vector<std::byte>& bytes() noexcept { return bytes_; }
    const std::vector<std::byte>& bytes() const noexcept { return bytes_; }

private:
    DType dtype_ = DType::F32;
    std::size_t count_ = 0;
    std::vector<std::byte> bytes_;
};

} // namespace kw
