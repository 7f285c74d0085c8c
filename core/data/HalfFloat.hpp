#pragma once
// IEEE binary16 (f16) and bfloat16 (bf16) bit conversions, without any CUDA
// header: the host side must produce exactly the bits a kernel expects.
#include <cstdint>

namespace kw {

// Round to nearest, ties to even; overflow gives infinity; NaN stays NaN.
std::uint16_t halfFromDouble(double v);
std::uint16_t bfloat16FromDouble(double v);
double halfToDouble(std::uint16_t bits);
double bfloat16ToDouble(std::uint16_t bits);

} // namespace kw
