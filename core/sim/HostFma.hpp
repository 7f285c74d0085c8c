#pragma once
// a * b + c with one rounding, in the current rounding mode, whatever the host's maths
// library does (MinGW-w64's fmaf rounds twice for about 30 % of f32 operands). With the
// processor's FMA instruction where it has one; else, for f32, the product exact in double
// and the sum rounded to odd (as the f16/bf16 fma does), which a later rounding to f32
// turns into the one rounding of the exact value; for f64, the library's fma.
#include "sim/F32Lanes.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

namespace kw::sim {

// x * y + z for operands whose product is exact in double (f32 or narrower), the sum
// rounded to odd (truncated, last bit set when inexact): one later rounding to a format
// with at least 2 bits fewer than double's equals the rounding of the exact x*y+z.
// Needs rounding to nearest (the two-sum).
inline double fmaRoundedToOdd(double x, double y, double z)
{
    const double p = x * y;
    const double s = p + z;
    if (!std::isfinite(s))
        return s;
    const double bv = s - p;
    const double e = (p - (s - bv)) + (z - bv); // p + z = s + e exactly (two-sum)
    if (e == 0)
        return s;
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(s); // s != 0: p and z are far above subnormals
    if ((e > 0) == (s > 0))
        return std::bit_cast<double>(bits | 1);   // |s| < |p + z|: s is the truncation
    return std::bit_cast<double>((bits - 1) | 1); // |s| > |p + z|: the double below s is
}

inline float fmaF32ByDouble(float a, float b, float c)
{
    // The operands and the sum pass through volatile copies, so that the arithmetic stays
    // between the rounding-mode changes: a compiler that assumes the default mode may
    // otherwise move it across them.
    const int mode = std::fegetround();
    if (mode != FE_TONEAREST)
        std::fesetround(FE_TONEAREST);
    const volatile float va = a, vb = b, vc = c;
    const volatile double odd = fmaRoundedToOdd(va, vb, vc);
    if (mode != FE_TONEAREST)
        std::fesetround(mode);
    return float(odd); // the one rounding, in the caller's mode
}

#ifdef KW_SIM_F32_LANES
[[gnu::target("fma")]] inline float fmaInstruction(float a, float b, float c)
{
    return _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(c)));
}
[[gnu::target("fma")]] inline double fmaInstruction(double a, double b, double c)
{
    return _mm_cvtsd_f64(_mm_fmadd_sd(_mm_set_sd(a), _mm_set_sd(b), _mm_set_sd(c)));
}
#endif

inline float hostFma(float a, float b, float c)
{
#ifdef KW_SIM_F32_LANES
    if (kHostFma)
        return fmaInstruction(a, b, c);
#endif
    return fmaF32ByDouble(a, b, c);
}

inline double hostFma(double a, double b, double c)
{
#ifdef KW_SIM_F32_LANES
    if (kHostFma)
        return fmaInstruction(a, b, c);
#endif
    return std::fma(a, b, c);
}

} // namespace kw::sim
