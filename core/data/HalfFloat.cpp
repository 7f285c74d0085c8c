#include "data/HalfFloat.hpp"

namespace kw {

std::uint16_t halfFromDouble(double v) { return halfdetail::round<5, 10>(halfdetail::bitsOf(v)); }
std::uint16_t bfloat16FromDouble(double v) { return halfdetail::round<8, 7>(halfdetail::bitsOf(v)); }
double halfToDouble(std::uint16_t bits) { return halfToFloat(bits); }
double bfloat16ToDouble(std::uint16_t bits) { return bfloat16ToFloat(bits); }

} // namespace kw
