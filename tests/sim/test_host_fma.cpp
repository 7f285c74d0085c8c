// hostFma rounds a * b + c once, in the current rounding mode, on any host: the simulator's
// fma.f32 and the tests' references use it, so a maths library whose fmaf rounds twice
// (MinGW-w64's) can make neither wrong. The reference is the exact value in 128-bit floats
// (113 bits hold a product of two f32 exactly, and one more rounding of their sum to 113
// bits is harmless before the rounding to f32's 24).
#include "sim/HostFma.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using kw::sim::fmaF32ByDouble;
using kw::sim::hostFma;

namespace {

std::vector<float> operands()
{
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> v = {0.0f,
                            -0.0f,
                            1.0f,
                            -1.0f,
                            0.5f,
                            3.0f,
                            1e-45f,
                            -1e-45f,
                            1.17549435e-38f,
                            3.4028235e38f,
                            -3.4028235e38f,
                            inf,
                            -inf,
                            std::numeric_limits<float>::quiet_NaN(),
                            1.0f + 0x1p-23f,
                            1.0f - 0x1p-24f,
                            0x1p-126f,
                            0x1p-149f,
                            0x1.fffffep127f};
    std::mt19937 gen(7);
    std::uniform_int_distribution<std::uint32_t> bits;
    std::uniform_real_distribution<float> near(-4, 4);
    for (int i = 0; i < 4000; ++i)
        v.push_back(std::bit_cast<float>(bits(gen))); // every exponent, NaNs and infinities included
    for (int i = 0; i < 4000; ++i)
        v.push_back(near(gen)); // sums that cancel
    return v;
}

// Equal, or both NaN; a zero's sign aside (an exact zero sum is -0 rounding down).
bool sameValue(float x, float y) { return x == y || (std::isnan(x) && std::isnan(y)); }

bool same(float x, float y)
{
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y) || (std::isnan(x) && std::isnan(y));
}

} // namespace

#ifdef __SIZEOF_FLOAT128__
// The exact a * b + c rounded once to nearest (`mode` FE_TONEAREST) or in a direction, from
// 128-bit floats, all of it rounding to nearest (a soft-float library may know no other
// mode): the product is exact in 113 bits, the sum's rounding error is found exactly
// (two-sum) and the sum moved to the odd neighbour when it was inexact, so its rounding to
// f32 is the nearest to the exact value; a directed mode then moves it one step when it
// lies on the wrong side of the exact value.
float exactRounded(float a, float b, float c, int mode)
{
    if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c))
        return float(double(a) * double(b) + double(c)); // infinities and NaNs: no rounding to get wrong
    const __float128 p = __float128(a) * __float128(b);
    const __float128 s = p + __float128(c);
    const __float128 v = s - p;
    const __float128 err = (p - (s - v)) + (__float128(c) - v);
    __float128 odd = s;
    unsigned __int128 bits;
    std::memcpy(&bits, &odd, sizeof bits);
    if (err != 0 && (bits & 1) == 0) {
        bits += (err > 0) == (s > 0) ? 1 : -1; // one step away from zero, or towards it
        std::memcpy(&odd, &bits, sizeof bits);
    }
    float r = float(odd);
    if (mode == FE_TONEAREST)
        return r;
    if (std::isinf(r)) { // beyond the largest f32: a direction towards zero stops at it
        const bool towardsZero = mode == FE_TOWARDZERO || (mode == FE_UPWARD) == (r < 0);
        return towardsZero ? std::copysign(std::numeric_limits<float>::max(), r) : r;
    }
    // The side of the exact value r lies on: r is within a step of s, so r - s is exact.
    const __float128 d = __float128(r) - s;
    const int side = d > 0 ? 1 : d < 0 ? -1 : err > 0 ? -1 : err < 0 ? 1 : 0;
    const bool positive = s > 0 || (s == 0 && err > 0);
    if (mode == FE_UPWARD && side < 0)
        r = std::nextafter(r, HUGE_VALF);
    else if (mode == FE_DOWNWARD && side > 0)
        r = std::nextafter(r, -HUGE_VALF);
    else if (mode == FE_TOWARDZERO && side != 0 && (side > 0) == positive)
        r = std::nextafter(r, 0.0f);
    return r;
}
#endif

TEST(HostFma, RoundsOnceToNearestForOperandsOfEveryKind)
{
#ifndef __SIZEOF_FLOAT128__
    GTEST_SKIP() << "this compiler has no 128-bit float for the exact reference";
#else
    const std::vector<float> v = operands();
    std::mt19937 gen(11);
    std::uniform_int_distribution<std::size_t> pick(0, v.size() - 1);
    int checked = 0, wrong = 0, wrongByDouble = 0;
    for (int i = 0; i < 400000; ++i) {
        const float a = v[pick(gen)], b = v[pick(gen)];
        // c near -a*b half the time, where a second rounding shows most
        const float c = i % 2 ? v[pick(gen)] : -float(double(a) * double(b)) * (1 + 0x1p-20f * float(i % 7));
        const float want = exactRounded(a, b, c, FE_TONEAREST);
        wrong += !same(hostFma(a, b, c), want);
        wrongByDouble += !same(fmaF32ByDouble(a, b, c), want);
        ++checked;
    }
    EXPECT_EQ(wrong, 0) << "of " << checked;
    EXPECT_EQ(wrongByDouble, 0) << "of " << checked << " (the path for a host without FMA)";
#endif
}

// (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is exactly halfway between two f32 values. A c of
// +-2^-80 decides the rounding, but a sum in double drops it (half its last place is
// 2^-53) and the rounding to f32 then ties to even: rounded twice, wrong.
TEST(HostFma, TheDoublePathDoesNotRoundTwice)
{
    const float a = 1.0f + 0x1p-12f, tiny = 0x1p-80f;
    const float below = 1.0f + 0x1p-11f, above = 1.0f + 0x1p-11f + 0x1p-23f;
    EXPECT_EQ(fmaF32ByDouble(a, a, tiny), above) << "just above the midpoint";
    EXPECT_EQ(fmaF32ByDouble(a, a, -tiny), below) << "just below the midpoint";
    EXPECT_EQ(fmaF32ByDouble(a, a, 0.0f), below) << "on the midpoint: to even";
    EXPECT_EQ(hostFma(a, a, tiny), above);
    EXPECT_EQ(float(double(a) * double(a) + double(tiny)), below) << "a plain double sum rounds twice here";
}

TEST(HostFma, DirectedRoundingsRoundOnceInTheirDirection)
{
#ifndef __SIZEOF_FLOAT128__
    GTEST_SKIP() << "this compiler has no 128-bit float for the exact reference";
#else
    const std::vector<float> v = operands();
    std::mt19937 gen(13);
    std::uniform_int_distribution<std::size_t> pick(0, v.size() - 1);
    for (int mode : {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD}) {
        int wrong = 0, checked = 0;
        for (int i = 0; i < 50000; ++i) {
            const float a = v[pick(gen)], b = v[pick(gen)], c = v[pick(gen)];
            if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c))
                continue;
            // Operands and results through volatile copies: a compiler that assumes the default
            // rounding mode could otherwise move the arithmetic across the mode's changes.
            const volatile float want = exactRounded(a, b, c, mode);
            const volatile float va = a, vb = b, vc = c;
            std::fesetround(mode);
            const volatile float got = hostFma(va, vb, vc), byDouble = fmaF32ByDouble(va, vb, vc);
            std::fesetround(FE_TONEAREST);
            wrong += !sameValue(got, want) + !sameValue(byDouble, want);
            ++checked;
        }
        EXPECT_EQ(wrong, 0) << "rounding mode " << mode << ", " << checked << " operands";
    }
#endif
}
