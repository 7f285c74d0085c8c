#pragma once
// The CUDA vector types (float4, int2, half2, ...) and other device types without a
// dtype of their own (clock_t) as element layouts: components of one scalar size.
#include <cstddef>
#include <optional>
#include <string_view>

namespace kw {

struct CVectorType {
    std::size_t componentSize = 0; // bytes of one component
    int components = 1;
    std::size_t size() const { return componentSize * std::size_t(components); }
};

// "float4" -> {4, 4}; "clock_t" -> {8, 1}; nullopt for a type it does not know.
std::optional<CVectorType> vectorTypeOf(std::string_view cType);

} // namespace kw
