#include "data/CVectorType.hpp"

#include <string>

namespace kw {

namespace {

struct Base {
    std::string_view name;
    std::size_t size;
};

// Component types of CUDA's vector_types.h (cuda_fp16.h / cuda_bf16.h for half2 and
// nv_bfloat162). long is 8 bytes in device code on 64-bit hosts.
constexpr Base kBases[] = {
    {"char", 1}, {"uchar", 1}, {"short", 2},    {"ushort", 2},    {"int", 4},   {"uint", 4},
    {"long", 8}, {"ulong", 8}, {"longlong", 8}, {"ulonglong", 8}, {"float", 4}, {"double", 8},
};

} // namespace

std::optional<CVectorType> vectorTypeOf(std::string_view t)
{
    if (t == "clock_t")
        return CVectorType{8, 1};
    if (t == "half2" || t == "__half2")
        return CVectorType{2, 2};
    if (t == "nv_bfloat162" || t == "__nv_bfloat162")
        return CVectorType{2, 2};
    if (t.empty() || t.back() < '1' || t.back() > '4')
        return std::nullopt;
    const int n = t.back() - '0';
    const std::string_view base = t.substr(0, t.size() - 1);
    for (const Base& b : kBases)
        if (base == b.name)
            return CVectorType{b.size, n};
    return std::nullopt;
}

} // namespace kw
