// Comparing an output with the reference's: exact, tolerances, units in the last place,
// NaN and infinities, and an element that still holds the sentinel.
#include "grade/OutputComparison.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using kw::DType;
using kw::grade::OutputComparison;

namespace {

OutputComparison ulp(std::uint64_t k)
{
    OutputComparison c;
    c.mode = OutputComparison::Mode::Ulp;
    c.ulp = k;
    return c;
}

} // namespace

TEST(OutputComparison, UlpDistanceCountsRepresentableValues)
{
    const float one = 1.0f;
    const float next = std::nextafter(one, 2.0f);
    const float next2 = std::nextafter(next, 2.0f);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F32, one, one), 0u);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F32, one, next), 1u);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F32, next2, one), 2u);
    // Across zero: +0 and -0 are the same value; the smallest subnormals either side are 2 apart.
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F32, 0.0, -0.0), 0u);
    const float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F32, tiny, -tiny), 2u);
    // f64 counts a double's places, f16 a half's: 1 and 1 + 2^-10 are neighbours in f16.
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F64, 1.0, std::nextafter(1.0, 2.0)), 1u);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::F16, 1.0, 1.0 + 1.0 / 1024), 1u);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::BF16, 1.0, 1.0 + 1.0 / 128), 1u);
    EXPECT_EQ(OutputComparison::ulpDistance(DType::I32, 5, 9), 4u);

    EXPECT_TRUE(ulp(1).matches(DType::F32, one, next));
    EXPECT_FALSE(ulp(1).matches(DType::F32, one, next2));
    EXPECT_TRUE(ulp(2).matches(DType::F32, one, next2));
    EXPECT_FALSE(ulp(0).matches(DType::F32, one, next));
}

TEST(OutputComparison, Tolerances)
{
    OutputComparison c;
    c.mode = OutputComparison::Mode::Tolerance;
    c.atol = 0.01;
    c.rtol = 0.1;
    EXPECT_TRUE(c.matches(DType::F32, 100, 109.9));  // 9.9 <= 0.01 + 10
    EXPECT_FALSE(c.matches(DType::F32, 100, 110.2)); // 10.2 > 10.01
    EXPECT_TRUE(c.matches(DType::F32, 0, 0.01));
    EXPECT_FALSE(c.matches(DType::F32, 0, 0.0101));
    EXPECT_EQ(c.describe(), "atol 0.01 rtol 0.1");
    EXPECT_EQ(ulp(2).describe(), "ulp <= 2");
}

TEST(OutputComparison, ExactIsExact)
{
    OutputComparison c;
    EXPECT_TRUE(c.matches(DType::I32, 7, 7));
    EXPECT_FALSE(c.matches(DType::I32, 7, 8));
    EXPECT_FALSE(c.matches(DType::F32, 1.0, std::nextafter(1.0f, 2.0f)));
    EXPECT_EQ(c.describe(), "exact");
}

TEST(OutputComparison, NanAndInfinities)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (auto mode : {OutputComparison::Mode::Exact, OutputComparison::Mode::Tolerance, OutputComparison::Mode::Ulp}) {
        OutputComparison c;
        c.mode = mode;
        c.atol = 1e9;
        c.ulp = 1000000;
        EXPECT_TRUE(c.matches(DType::F32, nan, nan)) << OutputComparison::toString(mode);
        EXPECT_FALSE(c.matches(DType::F32, nan, 1.0)) << OutputComparison::toString(mode);
        EXPECT_FALSE(c.matches(DType::F32, 1.0, nan)) << OutputComparison::toString(mode);
        EXPECT_TRUE(c.matches(DType::F32, inf, inf)) << OutputComparison::toString(mode);
        EXPECT_FALSE(c.matches(DType::F32, inf, -inf)) << OutputComparison::toString(mode);
        EXPECT_FALSE(c.matches(DType::F32, inf, 3e38)) << OutputComparison::toString(mode);
        c.nan = OutputComparison::Nan::Wrong;
        EXPECT_FALSE(c.matches(DType::F32, nan, nan)) << OutputComparison::toString(mode);
    }
}

TEST(OutputComparison, CompareFindsTheFirstWrongAndTheUnwritten)
{
    kw::HostBuffer expected(DType::F32, 6), got(DType::F32, 6);
    const double sentinel = -1.2760588090e38; // rounded to a float as the buffer holds it
    for (std::size_t i = 0; i < 6; ++i) {
        expected.set(i, double(i));
        got.set(i, double(i));
    }
    got.set(4, sentinel);
    got.set(2, 7);
    const auto r = OutputComparison{}.compare(expected, got, sentinel);
    EXPECT_EQ(r.checked, 6u);
    EXPECT_EQ(r.wrong, 2u);
    EXPECT_EQ(r.unwritten, 1u);
    ASSERT_TRUE(r.first);
    EXPECT_EQ(r.first->index, 2u);
    EXPECT_DOUBLE_EQ(r.first->got, 7);
    EXPECT_FALSE(r.first->unwritten);
    got.set(2, 2);
    const auto r2 = OutputComparison{}.compare(expected, got, sentinel);
    ASSERT_TRUE(r2.first);
    EXPECT_EQ(r2.first->index, 4u);
    EXPECT_TRUE(r2.first->unwritten);
    // Without a sentinel (an inout output) the same element is merely wrong.
    EXPECT_FALSE(OutputComparison{}.compare(expected, got).first->unwritten);
}
