#include "data/DType.hpp"
#include "data/HalfFloat.hpp"
#include "data/HostBuffer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

using namespace kw;

namespace {

const DType kAll[] = {DType::I8,  DType::U8,  DType::I16, DType::U16,  DType::I32, DType::U32,
                      DType::I64, DType::U64, DType::F16, DType::BF16, DType::F32, DType::F64};

} // namespace

TEST(DType, NamesAndSizesRoundTrip)
{
    const std::size_t sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
    int k = 0;
    for (DType t : kAll) {
        EXPECT_EQ(sizeOf(t), sizes[k++]) << toString(t);
        EXPECT_EQ(parseDType(toString(t)), t);
        EXPECT_EQ(dtypeForCType(cTypeName(t)), t) << cTypeName(t);
    }
    EXPECT_STREQ(toString(DType::F32), "f32");
    EXPECT_STREQ(cTypeName(DType::F16), "__half");
    EXPECT_TRUE(isFloating(DType::BF16));
    EXPECT_FALSE(isFloating(DType::U64));
    EXPECT_FALSE(parseDType("float33").has_value());
    EXPECT_EQ(parseDType("float32"), DType::F32);
}

TEST(DType, CTypeNames)
{
    const std::pair<const char*, DType> cases[] = {
        {"float", DType::F32},
        {"double", DType::F64},
        {"__half", DType::F16},
        {"half", DType::F16},
        {"__nv_bfloat16", DType::BF16},
        {"int", DType::I32},
        {"int32_t", DType::I32},
        {"unsigned", DType::U32},
        {"unsigned int", DType::U32},
        {"uint32_t", DType::U32},
        {"long long", DType::I64},
        {"int64_t", DType::I64},
        {"unsigned long long", DType::U64},
        {"size_t", DType::U64},
        {"char", DType::I8},
        {"signed char", DType::I8},
        {"unsigned char", DType::U8},
        {"uint8_t", DType::U8},
        {"short", DType::I16},
        {"unsigned short", DType::U16},
        {"const   unsigned    int", DType::U32},
        {"std::size_t", DType::U64},
    };
    for (const auto& [name, type] : cases)
        EXPECT_EQ(dtypeForCType(name), type) << name;
    EXPECT_FALSE(dtypeForCType("float4").has_value());
    EXPECT_FALSE(dtypeForCType("T").has_value());
}

TEST(DType, HalfKnownBits)
{
    EXPECT_EQ(halfFromDouble(1.0), 0x3c00);
    EXPECT_EQ(halfFromDouble(-2.0), 0xc000);
    EXPECT_EQ(halfFromDouble(65504.0), 0x7bff);
    EXPECT_EQ(halfFromDouble(65519.99), 0x7bff);
    EXPECT_EQ(halfFromDouble(65520.0), 0x7c00); // halfway to the next binade: rounds to infinity
    EXPECT_EQ(halfFromDouble(INFINITY), 0x7c00);
    EXPECT_EQ(halfFromDouble(-INFINITY), 0xfc00);
    EXPECT_EQ(halfFromDouble(-0.0), 0x8000);
    EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -24)), 0x0001);       // smallest subnormal
    EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -25)), 0x0000);       // tie, to even
    EXPECT_EQ(halfFromDouble(std::ldexp(3.0, -25)), 0x0002);       // tie, to even
    EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -14)), 0x0400);       // smallest normal
    EXPECT_EQ(halfFromDouble(1.0 + std::ldexp(1.0, -11)), 0x3c00); // tie, to even
    EXPECT_EQ(halfFromDouble(1.0 + std::ldexp(3.0, -11)), 0x3c02); // tie, to even
    EXPECT_EQ(halfFromDouble(0.1), 0x2e66);
    const std::uint16_t nan = halfFromDouble(std::nan(""));
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x03ff, 0);
    EXPECT_TRUE(std::isnan(halfToDouble(nan)));
    EXPECT_EQ(halfToDouble(0x3555), 0.333251953125);
}

TEST(DType, Bfloat16KnownBits)
{
    EXPECT_EQ(bfloat16FromDouble(1.0), 0x3f80);
    EXPECT_EQ(bfloat16FromDouble(-1.0), 0xbf80);
    EXPECT_EQ(bfloat16FromDouble(1.0 + std::ldexp(1.0, -8)), 0x3f80); // tie, to even
    EXPECT_EQ(bfloat16FromDouble(1.0 + std::ldexp(3.0, -8)), 0x3f82); // tie, to even
    EXPECT_EQ(bfloat16FromDouble(3.3895313892515355e38), 0x7f7f);     // largest finite
    EXPECT_EQ(bfloat16FromDouble(1e39), 0x7f80);
    EXPECT_EQ(bfloat16FromDouble(std::ldexp(1.0, -133)), 0x0001); // smallest subnormal
    EXPECT_EQ(bfloat16ToDouble(0x4049), 3.140625);
    EXPECT_TRUE(std::isnan(bfloat16ToDouble(bfloat16FromDouble(std::nan("")))));
}

TEST(DType, EveryHalfAndBfloat16ValueRoundTrips)
{
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const auto b = static_cast<std::uint16_t>(bits);
        const double h = halfToDouble(b);
        if (std::isnan(h))
            EXPECT_TRUE(std::isnan(halfToDouble(halfFromDouble(h))));
        else
            EXPECT_EQ(halfFromDouble(h), b) << bits;
        const double f = bfloat16ToDouble(b);
        if (std::isnan(f))
            EXPECT_TRUE(std::isnan(bfloat16ToDouble(bfloat16FromDouble(f))));
        else
            EXPECT_EQ(bfloat16FromDouble(f), b) << bits;
        // bf16 is the top half of a float.
        const std::uint32_t fbits = bits << 16;
        float asFloat;
        std::memcpy(&asFloat, &fbits, 4);
        if (!std::isnan(asFloat))
            EXPECT_EQ(f, double(asFloat)) << bits;
    }
}

#ifdef __FLT16_MAX__
TEST(DType, HalfMatchesTheCompilersFloat16)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-27, 17);
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    for (int k = 0; k < 200000; ++k) {
        const double v = std::ldexp(mantissa(rng), int(exponent(rng))) * (k % 2 ? -1 : 1);
        const _Float16 h = static_cast<_Float16>(v);
        std::uint16_t expected;
        std::memcpy(&expected, &h, 2);
        ASSERT_EQ(halfFromDouble(v), expected) << v;
    }
}
#endif

TEST(DType, StoreRoundsAndSaturatesIntegers)
{
    std::byte buf[8];
    const auto roundTrip = [&](DType t, double v) {
        storeFromDouble(t, buf, v);
        return loadAsDouble(t, buf);
    };
    EXPECT_EQ(roundTrip(DType::I8, 300), 127);
    EXPECT_EQ(roundTrip(DType::I8, -300), -128);
    EXPECT_EQ(roundTrip(DType::U8, -5), 0);
    EXPECT_EQ(roundTrip(DType::U8, 2.5), 3);
    EXPECT_EQ(roundTrip(DType::I32, -2.4), -2);
    EXPECT_EQ(roundTrip(DType::I32, std::nan("")), 0);
    EXPECT_EQ(roundTrip(DType::U32, 5e9), 4294967295.0);
    EXPECT_EQ(roundTrip(DType::I64, 1e30), 9223372036854775807.0);
    EXPECT_EQ(roundTrip(DType::U64, 1e30), 18446744073709551615.0);
    EXPECT_EQ(roundTrip(DType::I64, double(1ll << 53)), double(1ll << 53));
    EXPECT_EQ(roundTrip(DType::F32, 0.1), double(0.1f));
    EXPECT_EQ(roundTrip(DType::F64, 0.1), 0.1);
    EXPECT_EQ(roundTrip(DType::F16, 0.1), halfToDouble(0x2e66));
}

TEST(DType, HostBufferElements)
{
    HostBuffer b(DType::I16, 5);
    EXPECT_EQ(b.byteSize(), 10u);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(b.at(i), 0.0);
    b.set(3, -7);
    EXPECT_EQ(b.at(3), -7.0);
    std::int16_t raw;
    std::memcpy(&raw, b.data() + 6, 2);
    EXPECT_EQ(raw, -7);
    EXPECT_THROW(b.at(5), std::exception);
}
