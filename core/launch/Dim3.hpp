#pragma once
// A grid or block shape, as CUDA's dim3.
#include <cstdint>
#include <string>

namespace kw {

struct Dim3 {
    std::uint32_t x = 1, y = 1, z = 1;
    std::uint64_t volume() const { return std::uint64_t(x) * y * z; }
    bool operator==(const Dim3&) const = default;
};
std::string toString(const Dim3& d); // "256x1x1"

} // namespace kw
