#pragma once
// a * b + c with one rounding, in the current rounding mode, whatever the host's maths
// library does (MinGW-w64's fmaf rounds twice for about 30 % of f32 operands). With the
// processor's FMA instruction where it has one; else, for f32, the product exact in double
// and the sum rounded to odd, which a later rounding to f32 turns into the one rounding of
// the exact value; for f64, the library's fma.
#include "sim/F32Lanes.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

namespace kw::sim {

inline float fmaF32ByDouble(float a, float b, float c)
{
    // The operands and the sum pass through volatile copies, so that the arithmetic stays
    // between the rounding-mode changes: a compiler that assumes the default mode may
    // otherwise move it across them.
    const int mode = std::fegetround();
    if (mode != FE_TONEAREST)
        std::fesetround(FE_TONEAREST); // the error term below needs rounding to nearest
    const volatile float va = a, vb = b, vc = c;
    const double p = double(va) * double(vb); // exact: 48 significant bits
    const double cc = vc, s = p + cc;
    const double v = s - p;
    const double err = (p - (s - v)) + (cc - v); // s + err == p + c exactly
    volatile double odd = s;
    if (err != 0 && std::isfinite(s) && (std::bit_cast<std::uint64_t>(s) & 1u) == 0)
        odd = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
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
