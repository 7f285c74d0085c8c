// The one f16/bf16 conversion (data/HalfFloat.hpp) that the simulator and the host
// share: every 16-bit pattern, and a sample of floats, against the simulator's former
// bit-level conversion (kept here as the reference) and the compiler's _Float16.
#include "data/HalfFloat.hpp"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

using namespace kw;

std::uint32_t bitsOf(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    return x;
}
float floatOf(std::uint32_t x)
{
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// The reference: what the simulator computed before the conversion was shared.
float refHalfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
    if (exp == 0) {
        if (man == 0)
            bits = sign;
        else {
            exp = 127 - 15 + 1;
            while (!(man & 0x400u)) {
                man <<= 1;
                --exp;
            }
            man &= 0x3ffu;
            bits = sign | (exp << 23) | (man << 13);
        }
    } else if (exp == 31)
        bits = sign | 0x7f800000u | (man << 13);
    else
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    return floatOf(bits);
}
std::uint16_t refFloatToHalf(float f)
{
    const std::uint32_t x = bitsOf(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u)
        return std::uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (absx >= 0x477ff000u)
        return std::uint16_t(sign | 0x7c00u);
    if (absx < 0x33000001u)
        return std::uint16_t(sign);
    int exp = int(absx >> 23) - 127 + 15;
    std::uint32_t man = (absx & 0x7fffffu) | 0x800000u;
    int shift = 13;
    if (exp <= 0) {
        shift += 1 - exp;
        exp = 0;
    }
    std::uint32_t r = man >> shift;
    const std::uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1)))
        ++r;
    if (exp == 0)
        return std::uint16_t(sign | r);
    return std::uint16_t(sign | ((std::uint32_t(exp) << 10) + (r - 0x400u)));
}
std::uint16_t refFloatToBf16(float f)
{
    std::uint32_t x = bitsOf(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return std::uint16_t((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return std::uint16_t(x >> 16);
}

bool isNanHalf(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }
bool isNanBf16(std::uint16_t h) { return (h & 0x7f80u) == 0x7f80u && (h & 0x7fu); }

// Checks one float through every form: float and double entry points, the reference, _Float16.
void checkFloat(float f)
{
    const std::uint32_t x = bitsOf(f);
    ASSERT_EQ(halfFromFloat(f), refFloatToHalf(f)) << std::hex << x;
    ASSERT_EQ(bfloat16FromFloat(f), refFloatToBf16(f)) << std::hex << x;
    ASSERT_EQ(halfFromDouble(double(f)), halfFromFloat(f)) << std::hex << x;
    ASSERT_EQ(bfloat16FromDouble(double(f)), bfloat16FromFloat(f)) << std::hex << x;
#ifdef __FLT16_MAX__
    if (!std::isnan(f)) {
        const _Float16 h = static_cast<_Float16>(f);
        std::uint16_t expected;
        std::memcpy(&expected, &h, 2);
        ASSERT_EQ(halfFromFloat(f), expected) << std::hex << x;
    }
#endif
}

TEST(HalfFloat, EveryHalfPatternDecodesAsBeforeAndRoundTrips)
{
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const auto h = std::uint16_t(bits);
        const float f = halfToFloat(h);
        ASSERT_EQ(bitsOf(f), bitsOf(refHalfToFloat(h))) << std::hex << bits;
        if (isNanHalf(h)) {
            ASSERT_TRUE(std::isnan(halfToDouble(h)));
            ASSERT_EQ(halfFromFloat(f), std::uint16_t((h & 0x8000u) | 0x7e00u)) << std::hex << bits;
        } else {
            ASSERT_EQ(halfFromFloat(f), h) << std::hex << bits;
            ASSERT_EQ(halfToDouble(h), double(f)) << std::hex << bits;
            ASSERT_EQ(halfFromDouble(halfToDouble(h)), h) << std::hex << bits;
        }
    }
}

TEST(HalfFloat, EveryBfloat16PatternDecodesAsBeforeAndRoundTrips)
{
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const auto h = std::uint16_t(bits);
        const float f = bfloat16ToFloat(h);
        ASSERT_EQ(bitsOf(f), bits << 16) << std::hex << bits; // bf16 is a float's upper half
        if (isNanBf16(h)) {
            ASSERT_TRUE(std::isnan(bfloat16ToDouble(h)));
            ASSERT_EQ(bfloat16FromFloat(f), std::uint16_t(h | 0x40u)) << std::hex << bits; // quieted
        } else {
            ASSERT_EQ(bfloat16FromFloat(f), h) << std::hex << bits;
            ASSERT_EQ(bfloat16FromDouble(bfloat16ToDouble(h)), h) << std::hex << bits;
        }
    }
}

TEST(HalfFloat, FloatsRoundAsTheReferenceAndTheCompiler)
{
    // A stride through all 2^32 float patterns (both signs, NaNs, infinities, subnormals)...
    for (std::uint64_t x = 0; x < (1ull << 32); x += 4093)
        checkFloat(floatOf(std::uint32_t(x)));
    // ...and around every rounding boundary: each f16 and bf16 value, the midpoints to
    // its neighbour (ties) and one float step either side of them.
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const std::uint32_t base = bitsOf(halfToFloat(std::uint16_t(bits)));
        const std::uint32_t next = bitsOf(halfToFloat(std::uint16_t(bits + 1)));
        const float mid = (floatOf(base) + floatOf(next)) / 2;
        for (const std::uint32_t c : {base, bitsOf(mid), bitsOf(mid) - 1, bitsOf(mid) + 1})
            checkFloat(floatOf(c));
        const std::uint32_t b16 = bits << 16;
        for (const std::uint32_t c : {b16, b16 + 0x7fffu, b16 + 0x8000u, b16 + 0x8001u})
            checkFloat(floatOf(c));
    }
    checkFloat(65520.0f);              // halfway to the next binade: infinity
    checkFloat(std::ldexp(1.0f, -25)); // halfway to the smallest subnormal: zero
    checkFloat(std::ldexp(1.5f, -25)); // above it: the smallest subnormal
    checkFloat(3.3961e38f);            // bf16 overflow to infinity
}

TEST(HalfFloat, DoubleInputsRoundOnce)
{
    // 1 + 2^-11 + 2^-40 is above the f16 tie; through float it would be the tie itself.
    EXPECT_EQ(halfFromDouble(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3c01);
    EXPECT_EQ(bfloat16FromDouble(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3f81);
    EXPECT_EQ(halfFromDouble(1e300), 0x7c00);
    EXPECT_EQ(halfFromDouble(-1e-300), 0x8000);
    EXPECT_EQ(bfloat16FromDouble(1e-300), 0x0000);
}

TEST(HalfFloat, IndependentOfTheHostRoundingMode)
{
    const std::uint16_t nearest = halfFromFloat(1.0f + std::ldexp(3.0f, -12));
    std::fesetround(FE_UPWARD);
    const std::uint16_t up = halfFromFloat(1.0f + std::ldexp(3.0f, -12));
    const std::uint16_t upD = halfFromDouble(0.1);
    std::fesetround(FE_TONEAREST);
    EXPECT_EQ(up, nearest);
    EXPECT_EQ(upD, 0x2e66);
}

} // namespace
