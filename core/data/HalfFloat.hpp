#pragma once
// IEEE binary16 (f16) and bfloat16 (bf16) bit conversions, without any CUDA
// header: the host side and the simulator must produce exactly the bits a kernel
// expects. One implementation for both, in integer arithmetic, so the result does
// not depend on the host's rounding mode (the simulator changes it for .rz/.rm/.rp).
#include <bit>
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

// How a value between two representable ones is rounded: to nearest (ties to even),
// toward zero, toward -infinity, toward +infinity (PTX .rn .rz .rm .rp).
enum class Round16 { Nearest, TowardZero, Down, Up };

namespace halfdetail {

// The value (-1)^neg * mag * 2^exp2, plus a positive amount below mag's last bit when
// sticky, rounded to a 16-bit format with one sign bit, ExpBits exponent bits and
// MantBits stored mantissa bits (f16: 5/10, bf16: 8/7), in integer arithmetic: the
// result is exactly rounded, whatever the host's rounding mode. Overflow gives
// infinity, or the largest finite value where the direction rounds toward zero.
template <int ExpBits, int MantBits>
constexpr std::uint16_t roundScaled(bool neg, std::uint64_t mag, int exp2, bool sticky, Round16 mode)
{
    constexpr int bias = (1 << (ExpBits - 1)) - 1;
    constexpr int emin = 1 - bias;
    constexpr std::uint32_t expMask = ((1u << ExpBits) - 1u) << MantBits;
    const std::uint32_t sign = neg ? 0x8000u : 0u;
    if (mag == 0 && !sticky)
        return std::uint16_t(sign);
    const int top = int(std::bit_width(mag)) - 1; // the position of mag's highest set bit
    // The weight of the last kept bit: MantBits below the leading one, but never below
    // the smallest subnormal's.
    int lsbExp = top + exp2 - MantBits;
    if (mag == 0 || lsbExp < emin - MantBits)
        lsbExp = emin - MantBits;
    const int shift = lsbExp - exp2; // bits of mag dropped (<= 0: none)
    std::uint64_t r = 0;
    bool above = false, halfway = false, inexact = sticky; // the dropped part: > half, == half, != 0
    if (shift <= 0) {
        r = mag << -shift; // exact: at most MantBits + 1 bits
    } else if (shift > 64) {
        r = 0;
        inexact = true;
    } else {
        r = shift == 64 ? 0 : mag >> shift;
        const std::uint64_t rem = shift == 64 ? mag : mag & ((std::uint64_t(1) << shift) - 1);
        const std::uint64_t half = std::uint64_t(1) << (shift - 1);
        above = rem > half || (rem == half && sticky);
        halfway = rem == half && !sticky;
        inexact = rem != 0 || sticky;
    }
    bool up = false;
    switch (mode) {
    case Round16::Nearest: up = above || (halfway && (r & 1)); break;
    case Round16::TowardZero: break;
    case Round16::Down: up = inexact && neg; break;
    case Round16::Up: up = inexact && !neg; break;
    }
    r += up ? 1 : 0;
    // r counts units of 2^lsbExp; a normal result's leading one carries into the exponent field.
    // A subnormal's r is its field (a carry gives the smallest normal's); a carry past a
    // normal's leading bit lands on the next exponent.
    std::uint64_t magnitude = r;
    if (lsbExp > emin - MantBits)
        magnitude = (std::uint64_t(lsbExp + MantBits + bias) << MantBits) + (r - (std::uint64_t(1) << MantBits));
    if (magnitude >= expMask) {
        const bool toInf = mode == Round16::Nearest || (mode == Round16::Up && !neg) || (mode == Round16::Down && neg);
        return std::uint16_t(sign | (toInf ? expMask : expMask - 1));
    }
    return std::uint16_t(sign | std::uint32_t(magnitude));
}

// A double's bits rounded to a 16-bit format (see roundScaled). NaN stays NaN: f16 the
// quiet NaN with the input's sign; bf16 the input's sign and top payload bits, quieted.
template <int ExpBits, int MantBits> constexpr std::uint16_t round(std::uint64_t x, Round16 mode = Round16::Nearest)
{
    constexpr std::uint32_t expMask = ((1u << ExpBits) - 1u) << MantBits;
    constexpr std::uint32_t quiet = 1u << (MantBits - 1);
    const auto sign = std::uint32_t(x >> 48) & 0x8000u;
    const std::uint64_t absx = x & 0x7fffffffffffffffull;
    if (absx >= 0x7ff0000000000000ull) {
        if (absx == 0x7ff0000000000000ull)
            return std::uint16_t(sign | expMask);
        if constexpr (ExpBits == 8) // bf16 is a float's upper half: keep what of the payload fits
            return std::uint16_t(sign | expMask | quiet | (std::uint32_t(absx >> (52 - MantBits)) & (quiet - 1)));
        else
            return std::uint16_t(sign | expMask | quiet);
    }
    const int biased = int(absx >> 52);
    const std::uint64_t fraction = absx & 0xfffffffffffffull;
    if (biased == 0)
        return roundScaled<ExpBits, MantBits>(sign != 0, fraction, -1074, false, mode); // zero or subnormal
    return roundScaled<ExpBits, MantBits>(sign != 0, fraction | (1ull << 52), biased - 1075, false, mode);
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
    if (exp == 31)
        return halfdetail::floatOf(sign | 0x7f800000u | (man << 13));
    if (exp != 0)
        return halfdetail::floatOf(sign | ((exp + 127 - 15) << 23) | (man << 13));
    if (man == 0)
        return halfdetail::floatOf(sign);
    exp = 127 - 15 + 1; // subnormal: normalise
    while (!(man & 0x400u)) {
        man <<= 1;
        --exp;
    }
    return halfdetail::floatOf(sign | (exp << 23) | ((man & 0x3ffu) << 13));
}

inline float bfloat16ToFloat(std::uint16_t h) { return halfdetail::floatOf(std::uint32_t(h) << 16); }

// With a rounding direction, exactly from the double (a float or a 16-bit value widens to
// it exactly), and from a 64-bit integer's sign and magnitude (which a double cannot always hold).
inline std::uint16_t halfFromDouble(double v, Round16 mode)
{
    return halfdetail::round<5, 10>(halfdetail::bitsOf(v), mode);
}
inline std::uint16_t bfloat16FromDouble(double v, Round16 mode)
{
    return halfdetail::round<8, 7>(halfdetail::bitsOf(v), mode);
}
inline std::uint16_t halfFromInteger(bool negative, std::uint64_t magnitude, Round16 mode)
{
    return halfdetail::roundScaled<5, 10>(negative, magnitude, 0, false, mode);
}
inline std::uint16_t bfloat16FromInteger(bool negative, std::uint64_t magnitude, Round16 mode)
{
    return halfdetail::roundScaled<8, 7>(negative, magnitude, 0, false, mode);
}

} // namespace kw
