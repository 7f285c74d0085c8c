#pragma once
// IEEE binary16 (f16) and bfloat16 (bf16) bit conversions, without any CUDA
// header: the host side and the simulator must produce exactly the bits a kernel
// expects. One implementation for both, in integer arithmetic, so the result does
// not depend on the host's rounding mode (the simulator changes it for .rz/.rm/.rp).
#include <cstdint>
#include <cstring>

namespace kw {

// Round to nearest, ties to even; overflow gives infinity; NaN stays NaN (f16: the
// quiet NaN with the input's sign; bf16: the input's sign and top payload bits,
// quieted). Rounding is done once, from the double, so there is no double rounding.
std::uint16_t halfFromDouble(double v);
std::uint16_t bfloat16FromDouble(double v);
// Exact; a NaN keeps its sign and payload.
double halfToDouble(std::uint16_t bits);
double bfloat16ToDouble(std::uint16_t bits);

namespace halfdetail {

// A double's bits rounded to a 16-bit format with one sign bit, ExpBits exponent bits
// and MantBits stored mantissa bits (f16: 5/10, bf16: 8/7).
template <int ExpBits, int MantBits> constexpr std::uint16_t round(std::uint64_t x)
{
    constexpr int bias = (1 << (ExpBits - 1)) - 1;
    constexpr std::uint32_t expMask = ((1u << ExpBits) - 1u) << MantBits;
    constexpr std::uint32_t quiet = 1u << (MantBits - 1);
    const auto sign = std::uint32_t(x >> 48) & 0x8000u;
    const std::uint64_t absx = x & 0x7fffffffffffffffull;
    if (absx >= 0x7ff0000000000000ull) {
        if (absx == 0x7ff0000000000000ull) return std::uint16_t(sign | expMask);
        if constexpr (ExpBits == 8) // bf16 is a float's upper half: keep what of the payload fits
            return std::uint16_t(sign | expMask | quiet | (std::uint32_t(absx >> (52 - MantBits)) & (quiet - 1)));
        else
            return std::uint16_t(sign | expMask | quiet);
    }
    const int biased = int(absx >> 52);
    if (biased == 0) return std::uint16_t(sign); // zero, or a double subnormal: far below the smallest subnormal
    const int exponent = biased - 1023;           // absx = 1.f * 2^exponent
    const std::uint64_t man = (absx & 0xfffffffffffffull) | (1ull << 52);
    constexpr int emin = 1 - bias;
    int shift = 52 - MantBits;
    std::uint32_t field = 0;
    if (exponent >= emin) field = std::uint32_t(exponent + bias);
    else shift += emin - exponent; // subnormal: fewer mantissa bits survive
    if (shift > 63) return std::uint16_t(sign);
    std::uint64_t r = man >> shift;
    const std::uint64_t rem = man & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
    // A carry out of the mantissa lands on the next exponent (or, from a subnormal, the smallest normal).
    const std::uint64_t magnitude = field ? (std::uint64_t(field) << MantBits) + (r - (1ull << MantBits)) : r;
    if (magnitude >= expMask) return std::uint16_t(sign | expMask);
    return std::uint16_t(sign | std::uint32_t(magnitude));
}

inline std::uint64_t bitsOf(double v)
{
    std::uint64_t x;
    std::memcpy(&x, &v, 8);
    return x;
}

inline float floatOf(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

} // namespace halfdetail

// The float forms the simulator runs in its lane loops (a float widens to double exactly).
inline std::uint16_t halfFromFloat(float f) { return halfdetail::round<5, 10>(halfdetail::bitsOf(double(f))); }
inline std::uint16_t bfloat16FromFloat(float f) { return halfdetail::round<8, 7>(halfdetail::bitsOf(double(f))); }

inline float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 31) return halfdetail::floatOf(sign | 0x7f800000u | (man << 13));
    if (exp != 0) return halfdetail::floatOf(sign | ((exp + 127 - 15) << 23) | (man << 13));
    if (man == 0) return halfdetail::floatOf(sign);
    exp = 127 - 15 + 1; // subnormal: normalise
    while (!(man & 0x400u)) {
        man <<= 1;
        --exp;
    }
    return halfdetail::floatOf(sign | (exp << 23) | ((man & 0x3ffu) << 13));
}

inline float bfloat16ToFloat(std::uint16_t h) { return halfdetail::floatOf(std::uint32_t(h) << 16); }

} // namespace kw
