#pragma once
// The 16-bit float formats of the PTX types f16, f16x2, bf16 and bf16x2: how a value
// widens to float, how a result rounds back, and the canonical NaN the GPU writes.
#include "data/HalfFloat.hpp"
#include "sim/Instr.hpp"

#include <cstdint>

namespace kw::sim {

// The NaN that f16/bf16 arithmetic, min/max and conversions produce (CUDART_NAN_FP16/_BF16).
inline constexpr std::uint16_t kCanonicalNaN16 = 0x7fff;

inline bool isHalf16(PtxType t)
{
    return t == PtxType::F16 || t == PtxType::F16x2 || t == PtxType::BF16 || t == PtxType::BF16x2;
}
inline bool isBf16(PtxType t) { return t == PtxType::BF16 || t == PtxType::BF16x2; }
// 16-bit values in one register: 2 for the x2 types.
inline int halfLanes(PtxType t) { return t == PtxType::F16x2 || t == PtxType::BF16x2 ? 2 : 1; }

inline Round16 round16(RoundMode r)
{
    switch (r) {
    case RoundMode::Rz: return Round16::TowardZero;
    case RoundMode::Rm: return Round16::Down;
    case RoundMode::Rp: return Round16::Up;
    default: return Round16::Nearest;
    }
}

// Bf: bf16 (8 exponent, 7 mantissa bits), else f16 (5, 10).
template <bool Bf> struct Fmt16 {
    static float toFloat(std::uint16_t h) { return Bf ? bfloat16ToFloat(h) : halfToFloat(h); }
    static bool isNaN(std::uint16_t h)
    {
        return Bf ? (h & 0x7f80u) == 0x7f80u && (h & 0x7fu) : (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
    }
    // One rounding of v (exact, or itself correctly rounded to odd: see HalfHandlers' fma);
    // a NaN becomes the canonical NaN.
    static std::uint16_t fromDouble(double v, Round16 mode = Round16::Nearest)
    {
        if (v != v)
            return kCanonicalNaN16;
        return Bf ? bfloat16FromDouble(v, mode) : halfFromDouble(v, mode);
    }
    static std::uint16_t one() { return Bf ? 0x3f80u : 0x3c00u; }
};

// a + b rounded to nearest once (the sum in double is exact for f16; for bf16 its
// rounding is innocuous, double having more than twice bf16's precision plus 2 bits).
inline std::uint16_t addHalf16(bool bf, std::uint16_t a, std::uint16_t b)
{
    return bf ? Fmt16<true>::fromDouble(double(bfloat16ToFloat(a)) + bfloat16ToFloat(b))
              : Fmt16<false>::fromDouble(double(halfToFloat(a)) + halfToFloat(b));
}

} // namespace kw::sim
