// Instruction families against hand-computed values, edge cases included. The PTX is
// written by hand so these tests need neither NVRTC nor a GPU.
#include "PtxHarness.hpp"
#include "SimLaunch.hpp"
#include "sim/HostFma.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>

using namespace kwtest;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
std::uint64_t pack(std::uint32_t lo, std::uint32_t hi) { return (std::uint64_t(hi) << 32) | lo; }
std::uint32_t lo(std::uint64_t v) { return std::uint32_t(v); }
std::uint32_t hi(std::uint64_t v) { return std::uint32_t(v >> 32); }
} // namespace

TEST(SimInstructions, ShiftsClampAtRegisterWidth)
{
    const std::vector<std::uint64_t> amounts{0, 1, 31, 32, 33, 40, 255, 0xffffffffu};
    auto r = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    mov.u32 %r2, 1;
    shl.b32 %r3, %r2, %r1;
    mov.u32 %r4, -8;
    shr.s32 %r5, %r4, %r1;
    mov.b64 %rd1, {%r3, %r5};
    st.global.u64 [%rd28], %rd1;
)",
                    amounts, 8);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (std::size_t i = 0; i < amounts.size(); ++i) {
        const auto n = std::uint32_t(amounts[i]);
        EXPECT_EQ(lo(r.out[i]), n < 32 ? (1u << n) : 0u) << n;
        EXPECT_EQ(std::int32_t(hi(r.out[i])), n < 32 ? (-8 >> n) : -1) << n;
    }
    auto u = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    mov.u32 %r4, -8;
    shr.u32 %r5, %r4, %r1;
    mov.b64 %rd2, 1;
    shl.b64 %rd3, %rd2, %r1;
    cvt.u64.u32 %rd4, %r5;
    xor.b64 %rd5, %rd3, %rd4;
    st.global.u64 [%rd28], %rd5;
)",
                    amounts, 8);
    ASSERT_TRUE(u.report.ok) << kwtest::faultMessage(u.report.fault);
    for (std::size_t i = 0; i < amounts.size(); ++i) {
        const auto n = std::uint32_t(amounts[i]);
        const std::uint64_t shl64 = n < 64 ? (1ull << n) : 0;
        const std::uint64_t shr32 = n < 32 ? (0xfffffff8u >> n) : 0;
        EXPECT_EQ(u.out[i], shl64 ^ shr32) << n;
    }
}

TEST(SimInstructions, IntegerDivisionByZeroAndOverflow)
{
    const std::vector<std::pair<std::int32_t, std::int32_t>> cases{{7, 2},  {-7, 2},       {5, 0},
                                                                   {-5, 0}, {INT_MIN, -1}, {0, 0}};
    std::vector<std::uint64_t> in;
    for (auto [a, b] : cases)
        in.push_back(pack(std::uint32_t(a), std::uint32_t(b)));
    auto r = runPtx(R"(
    ld.global.v2.u32 {%r1, %r2}, [%rd27];
    div.s32 %r3, %r1, %r2;
    rem.s32 %r4, %r1, %r2;
    mov.b64 %rd1, {%r3, %r4};
    st.global.u64 [%rd28], %rd1;
)",
                    in, unsigned(in.size()));
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    const std::vector<std::pair<std::int32_t, std::int32_t>> expect{{3, 1},  {-3, -1},     {-1, 5},
                                                                    {1, -5}, {INT_MIN, 0}, {-1, 0}};
    for (std::size_t i = 0; i < cases.size(); ++i) {
        EXPECT_EQ(std::int32_t(lo(r.out[i])), expect[i].first) << i;
        EXPECT_EQ(std::int32_t(hi(r.out[i])), expect[i].second) << i;
    }
    auto u = runPtx(R"(
    ld.global.v2.u32 {%r1, %r2}, [%rd27];
    div.u32 %r3, %r1, %r2;
    rem.u32 %r4, %r1, %r2;
    mov.b64 %rd1, {%r3, %r4};
    st.global.u64 [%rd28], %rd1;
)",
                    {pack(5, 0), pack(9, 4)}, 2);
    EXPECT_EQ(u.out[0], pack(0xffffffffu, 5));
    EXPECT_EQ(u.out[1], pack(2, 1));
}

TEST(SimInstructions, FloatMinMaxWithNaNAndSignedZero)
{
    const std::vector<std::pair<float, float>> cases{{kNaN, 1.0f},  {1.0f, kNaN},  {kNaN, kNaN},
                                                     {-0.0f, 0.0f}, {kInf, -kInf}, {2.0f, 3.0f}};
    std::vector<std::uint64_t> in;
    for (auto [a, b] : cases)
        in.push_back(pack(std::uint32_t(f32bits(a)), std::uint32_t(f32bits(b))));
    auto r = runPtx(R"(
    ld.global.v2.f32 {%f1, %f2}, [%rd27];
    min.f32 %f3, %f1, %f2;
    max.f32 %f4, %f1, %f2;
    mov.b64 %rd1, {%f3, %f4};
    st.global.u64 [%rd28], %rd1;
)",
                    in, unsigned(in.size()));
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    EXPECT_EQ(asF32(lo(r.out[0])), 1.0f);
    EXPECT_EQ(asF32(hi(r.out[0])), 1.0f);
    EXPECT_EQ(asF32(lo(r.out[1])), 1.0f);
    EXPECT_TRUE(std::isnan(asF32(lo(r.out[2]))));
    EXPECT_TRUE(std::isnan(asF32(hi(r.out[2]))));
    EXPECT_TRUE(std::signbit(asF32(lo(r.out[3]))));
    EXPECT_FALSE(std::signbit(asF32(hi(r.out[3]))));
    EXPECT_EQ(asF32(lo(r.out[4])), -kInf);
    EXPECT_EQ(asF32(hi(r.out[4])), kInf);
    EXPECT_EQ(asF32(lo(r.out[5])), 2.0f);
    EXPECT_EQ(asF32(hi(r.out[5])), 3.0f);
}

TEST(SimInstructions, FloatToIntConversionsSaturateAndRound)
{
    const std::vector<float> x{kNaN, kInf, -kInf, 3e9f, 2.5f, 3.5f, -2.7f, -1.0f};
    std::vector<std::uint64_t> in;
    for (float f : x)
        in.push_back(f32bits(f));
    auto r = runPtx(R"(
    ld.global.f32 %f1, [%rd27];
    cvt.rzi.s32.f32 %r1, %f1;
    cvt.rni.s32.f32 %r2, %f1;
    mov.b64 %rd1, {%r1, %r2};
    st.global.u64 [%rd28], %rd1;
)",
                    in, unsigned(in.size()));
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    const std::vector<std::pair<std::int32_t, std::int32_t>> expect{
        {0, 0}, {INT_MAX, INT_MAX}, {INT_MIN, INT_MIN}, {INT_MAX, INT_MAX}, {2, 2}, {3, 4}, {-2, -3}, {-1, -1}};
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(std::int32_t(lo(r.out[i])), expect[i].first) << x[i];
        EXPECT_EQ(std::int32_t(hi(r.out[i])), expect[i].second) << x[i];
    }
    auto u = runPtx(R"(
    ld.global.f32 %f1, [%rd27];
    cvt.rzi.u32.f32 %r1, %f1;
    cvt.rmi.s32.f32 %r2, %f1;
    mov.b64 %rd1, {%r1, %r2};
    st.global.u64 [%rd28], %rd1;
)",
                    {f32bits(-1.0f), f32bits(-1.5f), f32bits(5e9f)}, 3);
    EXPECT_EQ(u.out[0], pack(0, std::uint32_t(-1)));
    EXPECT_EQ(u.out[1], pack(0, std::uint32_t(-2)));
    EXPECT_EQ(u.out[2], pack(0xffffffffu, std::uint32_t(INT_MAX)));
}

TEST(SimInstructions, IntegerConversionsWithAndWithoutSaturation)
{
    const std::vector<std::int32_t> x{300, -5, 100, 200};
    std::vector<std::uint64_t> in;
    for (auto v : x)
        in.push_back(std::uint32_t(v));
    auto r = runPtx(R"(
    ld.global.s32 %r1, [%rd27];
    cvt.sat.u8.s32 %h1, %r1;
    cvt.u32.u16 %r2, %h1;
    cvt.u8.s32 %h2, %r1;
    cvt.u32.u16 %r3, %h2;
    cvt.sat.s8.s32 %h3, %r1;
    cvt.s32.s8 %r4, %h3;
    shl.b32 %r4, %r4, 16;
    or.b32 %r3, %r3, %r4;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
)",
                    in, unsigned(in.size()));
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    auto expectHi = [](std::uint32_t wrapped, std::int32_t sat) { return wrapped | (std::uint32_t(sat) << 16); };
    EXPECT_EQ(r.out[0], pack(255, expectHi(44, 127)));
    EXPECT_EQ(r.out[1], pack(0, expectHi(251, -5)));
    EXPECT_EQ(r.out[2], pack(100, expectHi(100, 100)));
    EXPECT_EQ(r.out[3], pack(200, expectHi(200, 127)));
}

TEST(SimInstructions, FloatConversionsSaturateOverflowAndHalf)
{
    const std::vector<float> x{1.5f, -2.0f, kNaN, 0.25f};
    std::vector<std::uint64_t> in;
    for (float f : x)
        in.push_back(f32bits(f));
    auto r = runPtx(R"(
    ld.global.f32 %f1, [%rd27];
    cvt.sat.f32.f32 %f2, %f1;
    mov.b32 %r1, %f2;
    cvt.u64.u32 %rd1, %r1;
    st.global.u64 [%rd28], %rd1;
)",
                    in, unsigned(in.size()));
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    EXPECT_EQ(asF32(r.out[0]), 1.0f);
    EXPECT_EQ(asF32(r.out[1]), 0.0f);
    EXPECT_EQ(asF32(r.out[2]), 0.0f);
    EXPECT_EQ(asF32(r.out[3]), 0.25f);

    EXPECT_EQ(asF32(runOne(R"(
    mov.f64 %fd1, 0d7E37E43C8800759C;
    cvt.rn.f32.f64 %f1, %fd1;
    mov.b32 %r1, %f1;
    cvt.u64.u32 %rd1, %r1;
    st.global.u64 [%rd28], %rd1;
)")),
              kInf); // 1e300 does not fit in f32
    EXPECT_EQ(runOne(R"(
    mov.f32 %f1, 0f3F802000;
    cvt.rn.f16.f32 %h1, %f1;
    mov.f32 %f2, 0f47FFF000;
    cvt.rn.f16.f32 %h2, %f2;
    cvt.f32.f16 %f3, %h1;
    mov.b32 %r1, %f3;
    mov.b32 %r2, {%h1, %h2};
    mov.b64 %rd1, {%r1, %r2};
    st.global.u64 [%rd28], %rd1;
)"),
              pack(f32bits(1.0009765625f), 0x7c003c01u)); // 1.0009765625 is exact in f16; 131040 overflows
}

TEST(SimInstructions, ComparisonsWithNaN)
{
    const std::vector<std::pair<float, float>> cases{{kNaN, 1.0f}, {1.0f, 2.0f}, {2.0f, 1.0f}};
    std::vector<std::uint64_t> in;
    for (auto [a, b] : cases)
        in.push_back(pack(std::uint32_t(f32bits(a)), std::uint32_t(f32bits(b))));
    auto r = runPtx(R"(
    ld.global.v2.f32 {%f1, %f2}, [%rd27];
    setp.lt.f32 %p1, %f1, %f2;
    setp.ltu.f32 %p2, %f1, %f2;
    setp.nan.f32 %p3, %f1, %f2;
    setp.ge.or.f32 %p4|%p5, %f1, %f2, %p3;
    selp.u32 %r1, 1, 0, %p1;
    selp.u32 %r2, 2, 0, %p2;
    selp.u32 %r3, 4, 0, %p3;
    selp.u32 %r4, 8, 0, %p4;
    selp.u32 %r5, 16, 0, %p5;
    or.b32 %r1, %r1, %r2;
    or.b32 %r1, %r1, %r3;
    or.b32 %r1, %r1, %r4;
    or.b32 %r1, %r1, %r5;
    @!%p1 or.b32 %r1, %r1, 32;
    cvt.u64.u32 %rd1, %r1;
    st.global.u64 [%rd28], %rd1;
)",
                    in, 3);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    EXPECT_EQ(r.out[0], 2u + 4 + 8 + 16 + 32); // NaN: only unordered tests hold; .or with p3 sets both
    EXPECT_EQ(r.out[1], 1u + 2 + 16);
    EXPECT_EQ(r.out[2], 8u + 32);
}

TEST(SimInstructions, ShufflesAllModesFullWarp)
{
    std::vector<std::uint64_t> in(32);
    for (int l = 0; l < 32; ++l)
        in[l] = 100 + l * 7;
    auto r = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    shfl.sync.idx.b32 %r2, %r1, 3, 6175, -1;
    shfl.sync.up.b32 %r3|%p1, %r1, 2, 0, -1;
    shfl.sync.bfly.b32 %r4, %r1, 5, 31, -1;
    selp.u32 %r5, 0x10000, 0, %p1;
    add.u32 %r3, %r3, %r5;
    mul.lo.u32 %r4, %r4, 1000;
    add.u32 %r3, %r3, %r4;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
)",
                    in);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(lo(r.out[l]), in[(l & ~7) | 3]) << l; // width 8: c = 0x181f
        const std::uint32_t up = l >= 2 ? std::uint32_t(in[l - 2]) + 0x10000u : std::uint32_t(in[l]);
        EXPECT_EQ(hi(r.out[l]), up + 1000u * std::uint32_t(in[l ^ 5])) << l;
    }
}

TEST(SimInstructions, ShuffleDownWithPartialMaskAndWidth)
{
    std::vector<std::uint64_t> in(32);
    for (int l = 0; l < 32; ++l)
        in[l] = 1000 + l;
    auto r = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    setp.lt.u32 %p1, %r31, 16;
    @!%p1 bra $L_end;
    shfl.sync.down.b32 %r2|%p2, %r1, 1, 4127, 65535;
    selp.u32 %r3, 1, 0, %p2;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
$L_end:
)",
                    in);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (int l = 0; l < 15; ++l)
        EXPECT_EQ(r.out[l], pack(std::uint32_t(in[l + 1]), 1)) << l;
    EXPECT_EQ(r.out[15], pack(std::uint32_t(in[15]), 0)); // past the 16-lane segment: own value, p false
    for (int l = 16; l < 32; ++l)
        EXPECT_EQ(r.out[l], 0u) << l;
}

TEST(SimInstructions, VotesAmongDivergedLanes)
{
    auto vote = [](std::vector<std::uint64_t> in) {
        return runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    and.b32 %r2, %r31, 1;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra $L_end;
    setp.ne.u32 %p2, %r1, 0;
    vote.sync.ballot.b32 %r3, %p2, 0x55555555;
    vote.sync.all.pred %p3, %p2, 0x55555555;
    vote.sync.any.pred %p4, %p2, 0x55555555;
    vote.sync.uni.pred %p5, !%p2, 0x55555555;
    activemask.b32 %r4;
    selp.u32 %r5, 1, 0, %p3;
    selp.u32 %r6, 2, 0, %p4;
    selp.u32 %r7, 4, 0, %p5;
    or.b32 %r5, %r5, %r6;
    or.b32 %r5, %r5, %r7;
    xor.b32 %r5, %r5, %r4;
    mov.b64 %rd1, {%r3, %r5};
    st.global.u64 [%rd28], %rd1;
$L_end:
)",
                      in);
    };
    std::vector<std::uint64_t> some(32);
    for (int l = 0; l < 32; ++l)
        some[l] = l % 4 == 0;
    auto r = vote(some);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (int l = 0; l < 32; l += 2)
        EXPECT_EQ(r.out[l], pack(0x11111111u, 0x55555555u ^ 2u)) << l;
    for (int l = 1; l < 32; l += 2)
        EXPECT_EQ(r.out[l], 0u);
    auto all = vote(std::vector<std::uint64_t>(32, 1));
    for (int l = 0; l < 32; l += 2)
        EXPECT_EQ(all.out[l], pack(0x55555555u, 0x55555555u ^ 7u)) << l;
}

TEST(SimInstructions, ReduxAndMatch)
{
    std::vector<std::uint64_t> in(32);
    for (int l = 0; l < 32; ++l)
        in[l] = std::uint32_t(l * 3 - 40);
    auto r = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    redux.sync.add.s32 %r2, %r1, -1;
    redux.sync.min.s32 %r3, %r1, -1;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
)",
                    in);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    EXPECT_EQ(r.out[5], pack(3 * 496 - 40 * 32, std::uint32_t(-40)));
    auto m = runPtx(R"(
    ld.global.u32 %r1, [%rd27];
    shr.u32 %r1, %r31, 2;
    match.any.sync.b32 %r2, %r1, -1;
    match.all.sync.b32 %r3|%p1, %r1, -1;
    selp.u32 %r4, 1, 0, %p1;
    add.u32 %r3, %r3, %r4;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
)",
                    in);
    ASSERT_TRUE(m.report.ok) << kwtest::faultMessage(m.report.fault);
    for (int l = 0; l < 32; ++l)
        EXPECT_EQ(m.out[l], pack(0xfu << (4 * (l / 4)), 0)) << l;
}

TEST(SimInstructions, AtomicsOnGlobalAndShared)
{
    const std::string globals = R"(
.global .align 4 .u32 counter;
.global .align 4 .u32 lock;
.global .align 4 .s32 best = -100;
.global .align 8 .u64 total;
)";
    auto r = runPtx(R"(
    .shared .align 4 .f32 fsum;
    setp.ge.u32 %p7, %r31, 32;
    @%p7 bra $L_bar;
    mov.u64 %rd1, counter;
    atom.global.inc.u32 %r1, [%rd1], 9;
    add.u32 %r2, %r31, 1;
    atom.global.cas.b32 %r3, [lock], 0, %r2;
    sub.s32 %r4, 7, %r31;
    atom.global.max.s32 %r5, [best], %r4;
    cvt.u64.u32 %rd2, %r31;
    red.global.add.u64 [total], %rd2;
    atom.shared.add.f32 %f1, [fsum], 0f3F000000;
    mov.b64 %rd3, {%r1, %r3};
    st.global.u64 [%rd28], %rd3;
$L_bar:
    bar.sync 0;
    setp.ne.u32 %p6, %r31, 32;
    @%p6 bra $L_end;
    ld.global.u32 %r10, [counter];
    ld.global.u32 %r11, [lock];
    mov.b64 %rd4, {%r10, %r11};
    st.global.u64 [%rd28], %rd4;
    ld.global.s32 %r12, [best];
    ld.shared.f32 %f2, [fsum];
    mov.b32 %r13, %f2;
    mov.b64 %rd5, {%r12, %r13};
    st.global.u64 [%rd28+8], %rd5;
    ld.global.u64 %rd6, [total];
    st.global.u64 [%rd28+16], %rd6;
$L_end:
)",
                    {}, 35, globals);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    std::vector<std::uint32_t> incOld, casOld;
    for (int l = 0; l < 32; ++l) {
        incOld.push_back(lo(r.out[l]));
        casOld.push_back(hi(r.out[l]));
    }
    std::sort(incOld.begin(), incOld.end());
    std::vector<std::uint32_t> expectInc;
    for (int l = 0; l < 32; ++l)
        expectInc.push_back(std::uint32_t(l % 10));
    std::sort(expectInc.begin(), expectInc.end());
    EXPECT_EQ(incOld, expectInc);                               // inc wraps to 0 after 9
    EXPECT_EQ(std::count(casOld.begin(), casOld.end(), 0u), 1); // one thread takes the lock
    EXPECT_EQ(lo(r.out[32]), 32u % 10);
    EXPECT_GE(hi(r.out[32]), 1u);
    EXPECT_EQ(std::int32_t(lo(r.out[33])), 7);
    EXPECT_EQ(asF32(hi(r.out[33])), 16.0f);
    EXPECT_EQ(r.out[34], 31u * 32 / 2);
}

TEST(SimInstructions, BitManipulation)
{
    auto one = [](const std::string& op) {
        return runOne("    mov.u32 %r1, 0xABCD1234;\n    mov.u32 %r2, 0x12345678;\n" + op
                      + "\n    cvt.u64.u32 %rd1, %r3;\n    st.global.u64 [%rd28], %rd1;\n");
    };
    EXPECT_EQ(one("bfe.u32 %r3, %r1, 8, 8;"), 0x12u);
    EXPECT_EQ(one("mov.u32 %r4, 0xF000;\n bfe.s32 %r3, %r4, 12, 4;"), 0xffffffffu);
    EXPECT_EQ(one("bfi.b32 %r3, 15, %r2, 4, 8;"), 0x123450F8u);
    EXPECT_EQ(one("mov.u32 %r4, 0x03020100;\n mov.u32 %r5, 0x07060504;\n prmt.b32 %r3, %r4, %r5, 0x5410;"),
              0x05040100u);
    EXPECT_EQ(one("popc.b32 %r3, %r1;"), unsigned(__builtin_popcount(0xABCD1234u)));
    EXPECT_EQ(one("mov.u32 %r4, 0x10000;\n clz.b32 %r3, %r4;"), 15u);
    EXPECT_EQ(one("mov.u32 %r4, 0;\n clz.b32 %r3, %r4;"), 32u);
    EXPECT_EQ(one("mov.u32 %r4, 1;\n brev.b32 %r3, %r4;"), 0x80000000u);
    EXPECT_EQ(one("mov.u32 %r4, 0x10000;\n bfind.u32 %r3, %r4;"), 16u);
    EXPECT_EQ(one("mov.u32 %r4, 0x10000;\n bfind.shiftamt.u32 %r3, %r4;"), 15u);
    EXPECT_EQ(one("mov.u32 %r4, 0;\n bfind.u32 %r3, %r4;"), 0xffffffffu);
    EXPECT_EQ(one("mov.u32 %r4, -1;\n bfind.s32 %r3, %r4;"), 0xffffffffu);
    EXPECT_EQ(one("lop3.b32 %r3, %r1, %r2, 0xFF00FF00, 0x96;"), 0xABCD1234u ^ 0x12345678u ^ 0xFF00FF00u);
    EXPECT_EQ(one("shf.l.wrap.b32 %r3, %r1, %r2, 8;"), 0x345678ABu);
    EXPECT_EQ(one("not.b32 %r3, %r1;"), ~0xABCD1234u);
}

TEST(SimInstructions, MultiplyVariants)
{
    auto one = [](const std::string& op) { return runOne(op + "\n    st.global.u64 [%rd28], %rd1;\n"); };
    EXPECT_EQ(one("mov.u32 %r1, -2;\n mul.hi.s32 %r2, %r1, 3;\n cvt.u64.u32 %rd1, %r2;"), 0xffffffffu);
    EXPECT_EQ(one("mov.u32 %r1, 0x80000000;\n mul.hi.u32 %r2, %r1, 4;\n cvt.u64.u32 %rd1, %r2;"), 2u);
    EXPECT_EQ(one("mov.u32 %r1, -3;\n mul.wide.s32 %rd1, %r1, 5;"), std::uint64_t(-15));
    EXPECT_EQ(one("mov.u32 %r1, 0xffffffff;\n mul.wide.u32 %rd1, %r1, 2;"), 0x1fffffffeull);
    EXPECT_EQ(one("mov.u64 %rd2, 0x8000000000000000;\n mul.hi.u64 %rd1, %rd2, 4;"), 2u);
    EXPECT_EQ(one("mov.u32 %r1, 7;\n mad.lo.s32 %r2, %r1, -3, 100;\n cvt.u64.u32 %rd1, %r2;"), 79u);
    EXPECT_EQ(one("mov.u32 %r1, 0x10000;\n mad.wide.u32 %rd1, %r1, %r1, 5;"), 0x100000005ull);
    EXPECT_EQ(
        asF64(one("mov.f64 %fd1, 0d3FF8000000000000;\n fma.rn.f64 %fd2, %fd1, %fd1, %fd1;\n mov.b64 %rd1, %fd2;")),
        1.5 * 1.5 + 1.5);
}

TEST(SimInstructions, FtzFlushesSubnormalInputsAndResults)
{
    auto f = [](const std::string& op, float x) {
        return asF32(
            runOne("    ld.global.f32 %f1, [%rd27];\n" + op
                       + "\n    mov.b32 %r1, %f2;\n    cvt.u64.u32 %rd1, %r1;\n    st.global.u64 [%rd28], %rd1;\n",
                   f32bits(x)));
    };
    const float tiny = 1e-40f; // subnormal
    const float minNormal = std::numeric_limits<float>::min();
    EXPECT_EQ(f("add.f32 %f2, %f1, 0f00000000;", tiny), tiny);
    EXPECT_EQ(f("add.ftz.f32 %f2, %f1, 0f00000000;", tiny), 0.0f);
    EXPECT_EQ(f("mul.rn.f32 %f2, %f1, 0f00800000;", 0.5f), 0.5f * minNormal);
    EXPECT_EQ(f("mul.rn.ftz.f32 %f2, %f1, 0f00800000;", 0.5f), 0.0f); // a subnormal result
    EXPECT_GT(f("sqrt.rn.f32 %f2, %f1;", tiny), 0.0f);
    EXPECT_EQ(f("sqrt.rn.ftz.f32 %f2, %f1;", tiny), 0.0f);
    EXPECT_EQ(f("fma.rn.f32 %f2, %f1, 0f3F800000, 0f00000001;", 0.0f), std::numeric_limits<float>::denorm_min());
    EXPECT_EQ(f("fma.rn.ftz.f32 %f2, %f1, 0f3F800000, 0f00000001;", 0.0f), 0.0f);
    EXPECT_EQ(f("setp.gt.f32 %p1, %f1, 0f00000000;\n    selp.f32 %f2, 0f3F800000, 0f00000000, %p1;", tiny), 1.0f);
    EXPECT_EQ(f("setp.gt.ftz.f32 %p1, %f1, 0f00000000;\n    selp.f32 %f2, 0f3F800000, 0f00000000, %p1;", tiny), 0.0f);
    EXPECT_EQ(f("add.rn.sat.f32 %f2, %f1, %f1;", -0.25f), 0.0f);
}

TEST(SimInstructions, SpecialFunctionsAndDivision)
{
    auto f = [](const std::string& op, float x) {
        return asF32(
            runOne("    ld.global.f32 %f1, [%rd27];\n" + op
                       + "\n    mov.b32 %r1, %f2;\n    cvt.u64.u32 %rd1, %r1;\n    st.global.u64 [%rd28], %rd1;\n",
                   f32bits(x)));
    };
    EXPECT_FLOAT_EQ(f("ex2.approx.ftz.f32 %f2, %f1;", 3.5f), std::exp2(3.5f));
    EXPECT_FLOAT_EQ(f("lg2.approx.f32 %f2, %f1;", 10.0f), std::log2(10.0f));
    EXPECT_FLOAT_EQ(f("rcp.rn.f32 %f2, %f1;", 4.0f), 0.25f);
    EXPECT_FLOAT_EQ(f("rsqrt.approx.f32 %f2, %f1;", 16.0f), 0.25f);
    EXPECT_FLOAT_EQ(f("sqrt.rn.f32 %f2, %f1;", 2.0f), std::sqrt(2.0f));
    EXPECT_FLOAT_EQ(f("sin.approx.f32 %f2, %f1;", 0.5f), std::sin(0.5f));
    EXPECT_FLOAT_EQ(f("cos.approx.f32 %f2, %f1;", 0.5f), std::cos(0.5f));
    EXPECT_EQ(f("div.rn.f32 %f2, %f1, 0f00000000;", 1.0f), kInf);
    EXPECT_TRUE(std::isnan(f("div.rn.f32 %f2, %f1, 0f00000000;", 0.0f)));
    EXPECT_EQ(f("add.sat.f32 %f2, %f1, %f1;", 0.75f), 1.0f);
    EXPECT_EQ(f("abs.f32 %f2, %f1;", -2.0f), 2.0f);
    EXPECT_EQ(f("neg.f32 %f2, %f1;", 2.0f), -2.0f);
    EXPECT_EQ(f("cvt.rzi.f32.f32 %f2, %f1;", -2.7f), -2.0f);
    // fma.rm rounds toward minus infinity: 1 + 2^-30 is not representable.
    EXPECT_EQ(f("fma.rm.f32 %f2, %f1, 0f30800000, 0f3F800000;", 1.0f), 1.0f);
    EXPECT_EQ(f("fma.rp.f32 %f2, %f1, 0f30800000, 0f3F800000;", 1.0f), std::nextafter(1.0f, 2.0f));
}

TEST(SimInstructions, VectorLoadsStoresAndLocalMemory)
{
    auto r = runPtx(R"(
    .local .align 16 .b8 frame[32];
    mov.u64 %rd1, frame;
    cvt.u32.u64 %r9, %rd1;
    mov.u32 %r1, 1;
    mov.u32 %r2, 2;
    mov.u32 %r3, 3;
    add.u32 %r4, %r31, 4;
    st.local.v4.u32 [%rd1+16], {%r1, %r2, %r3, %r4};
    cvta.local.u64 %rd2, %rd1;
    ld.v4.u32 {%r5, %r6, %r7, %r8}, [%rd2+16];
    add.u32 %r5, %r5, %r6;
    add.u32 %r5, %r5, %r7;
    mov.b64 %rd3, {%r5, %r8};
    st.global.u64 [%rd28], %rd3;
)",
                    {}, 4);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (int l = 0; l < 4; ++l)
        EXPECT_EQ(r.out[l], pack(6, std::uint32_t(l + 4)));
}

TEST(SimInstructions, ConstantMemoryAndDynamicShared)
{
    const std::string globals = R"(
.const .align 4 .b8 coeffs[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .b8 stat[8];
)";
    auto r = runPtx(R"(
    ld.const.u32 %r1, [coeffs+8];
    mov.u32 %r2, dyn;
    shl.b32 %r3, %r31, 2;
    add.u32 %r4, %r2, %r3;
    st.shared.u32 [%r4], %r31;
    bar.sync 0;
    xor.b32 %r5, %r3, 4;
    add.u32 %r6, %r2, %r5;
    ld.shared.u32 %r7, [%r6];
    mov.b64 %rd1, {%r1, %r7};
    st.global.u64 [%rd28], %rd1;
)",
                    {}, 64, globals, 64 * 4);
    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
    for (int l = 0; l < 64; ++l)
        EXPECT_EQ(r.out[l], pack(3, std::uint32_t(l ^ 1))) << l;
}

TEST(SimInstructions, CarryChainsSadDp4a)
{
    // 64-bit add and subtract built from 32-bit halves with the carry flag.
    EXPECT_EQ(runOne(R"(
    mov.u32 %r1, 0xffffffff;
    mov.u32 %r2, 0x00000001;
    mov.u32 %r3, 0x00000001;
    mov.u32 %r4, 0x00000002;
    add.cc.u32 %r5, %r1, %r3;
    addc.u32 %r6, %r2, %r4;
    mov.b64 %rd1, {%r5, %r6};
    st.global.u64 [%rd28], %rd1;
)"),
              0x1ffffffffull + 0x200000001ull);
    EXPECT_EQ(runOne(R"(
    mov.u32 %r1, 0;
    mov.u32 %r2, 5;
    mov.u32 %r3, 1;
    mov.u32 %r4, 2;
    sub.cc.u32 %r5, %r1, %r3;
    subc.u32 %r6, %r2, %r4;
    mov.b64 %rd1, {%r5, %r6};
    st.global.u64 [%rd28], %rd1;
)"),
              0x500000000ull - 0x200000001ull);
    EXPECT_EQ(runOne(R"(
    mov.u32 %r1, 0x80000000;
    mov.u32 %r2, 6;
    mad.lo.cc.u32 %r3, %r1, %r2, 0;
    madc.hi.u32 %r4, %r1, %r2, 0;
    mov.b64 %rd1, {%r3, %r4};
    st.global.u64 [%rd28], %rd1;
)"),
              0x80000000ull * 6);
    EXPECT_EQ(runOne(R"(
    mov.u32 %r1, 3;
    mov.u32 %r2, 10;
    sad.s32 %r3, %r1, %r2, 100;
    cvt.u64.u32 %rd1, %r3;
    st.global.u64 [%rd28], %rd1;
)"),
              107u);
    EXPECT_EQ(
        runOne(R"(
    mov.u32 %r1, 0x01FF0203;
    mov.u32 %r2, 0x04050607;
    dp4a.s32.s32 %r3, %r1, %r2, 10;
    dp4a.u32.u32 %r4, %r1, %r2, 10;
    mov.b64 %rd1, {%r3, %r4};
    st.global.u64 [%rd28], %rd1;
)"),
        pack(std::uint32_t(10 + 1 * 4 - 1 * 5 + 2 * 6 + 3 * 7), std::uint32_t(10 + 1 * 4 + 255 * 5 + 2 * 6 + 3 * 7)));
}

TEST(SimInstructions, HalfPrecisionArithmetic)
{
    // 1.5 + 2.25 = 3.75 (0x4380); 1.5 * 2.25 = 3.375 (0x42C0); fma(1.5, 2.25, 1) = 4.375 (0x4460)
    EXPECT_EQ(runOne(R"(
    mov.b16 %h1, 0x3E00;
    mov.b16 %h2, 0x4080;
    mov.b16 %h3, 0x3C00;
    add.f16 %h4, %h1, %h2;
    mul.f16 %h5, %h1, %h2;
    fma.rn.f16 %h6, %h1, %h2, %h3;
    setp.lt.f16 %p1, %h1, %h2;
    selp.u32 %r1, 1, 0, %p1;
    mov.b32 %r2, {%h4, %h5};
    cvt.u32.u16 %r3, %h6;
    shl.b32 %r1, %r1, 16;
    or.b32 %r3, %r3, %r1;
    mov.b64 %rd1, {%r2, %r3};
    st.global.u64 [%rd28], %rd1;
)"),
              pack(0x42C04380u, 0x14460u));
    EXPECT_EQ(runOne(R"(
    mov.b32 %r1, 0x3C003E00;
    add.f16x2 %r2, %r1, %r1;
    cvt.u64.u32 %rd1, %r2;
    st.global.u64 [%rd28], %rd1;
)"),
              0x40004200u);
}

TEST(SimInstructions, IntToFloatConversionsHonourTheRoundingMode)
{
    // 16777219 lies halfway between the floats 16777218 and 16777220.
    auto convert = [](const char* mode) {
        return asF32(runOne(std::string(R"(
    mov.u32 %r1, 16777219;
    cvt.)") + mode + R"(.f32.s32 %f1, %r1;
    mov.b32 %r2, %f1;
    cvt.u64.u32 %rd1, %r2;
    st.global.u64 [%rd28], %rd1;
)"));
    };
    EXPECT_EQ(convert("rn"), 16777220.0f);
    EXPECT_EQ(convert("rz"), 16777218.0f);
    EXPECT_EQ(convert("rm"), 16777218.0f);
    EXPECT_EQ(convert("rp"), 16777220.0f);
}

namespace {

// Operand pairs for every lane of a warp: NaNs, signed zeros, infinities, subnormals,
// equal values, and bit patterns that order differently as signed and unsigned integers.
std::vector<std::pair<float, float>> warpOfOperands()
{
    const float inf = std::numeric_limits<float>::infinity(), tiny = std::numeric_limits<float>::denorm_min();
    std::vector<std::pair<float, float>> v{{kNaN, 1.0f},  {1.0f, kNaN},   {kNaN, kNaN},   {0.0f, -0.0f},
                                           {-1.0f, 1.0f}, {1.0f, -1.0f},  {2.0f, 2.0f},   {inf, -inf},
                                           {-inf, inf},   {tiny, 0.0f},   {-tiny, 0.0f},  {tiny, -tiny},
                                           {3.5f, -2.0f}, {-2.5f, -2.5f}, {1e30f, 1e-30f}};
    for (int l = int(v.size()); l < 32; ++l)
        v.emplace_back(float(l % 7) - 3.0f, float(l % 5) * 0.75f - 1.0f);
    return v;
}

float flushed(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

} // namespace

// setp over a whole warp (each comparison one loop, chosen before it) and over part of one
// (31 threads: lane by lane) gives each lane what the comparison gives on the host.
TEST(SimInstructions, EveryComparisonOverAWholeWarpAndPartOfOne)
{
    const std::vector<std::string> f32{"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                       "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    const std::vector<std::string> s32{"eq", "ne", "lt", "le", "gt", "ge"}, u32{"lo", "ls", "hi", "hs"};
    std::string body = "    ld.global.v2.f32 {%f1, %f2}, [%rd27];\n    mov.b32 %r1, %f1;\n    mov.b32 %r2, %f2;\n"
                       "    mov.u64 %rd1, 0;\n";
    int bit = 0;
    auto test = [&](const std::string& setp) {
        body += "    " + setp + "\n    selp.u64 %rd2, " + std::to_string(1ull << bit++)
            + ", 0, %p1;\n    or.b64 %rd1, %rd1, %rd2;\n";
    };
    for (const auto& c : f32)
        test("setp." + c + ".f32 %p1, %f1, %f2;");
    for (const auto& c : s32)
        test("setp." + c + ".s32 %p1, %r1, %r2;");
    for (const auto& c : u32)
        test("setp." + c + ".u32 %p1, %r1, %r2;");
    test("setp.lt.ftz.f32 %p1, %f1, %f2;");
    test("setp.gt.f32 %p3, %f1, %f2;\n    setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;");
    test("setp.lt.and.s32 %p2|%p1, %r1, %r2, !%p3;");
    body += "    st.global.u64 [%rd28], %rd1;\n";

    const auto ops = warpOfOperands();
    std::vector<std::uint64_t> in;
    for (auto [a, b] : ops)
        in.push_back(pack(std::uint32_t(f32bits(a)), std::uint32_t(f32bits(b))));
    auto expected = [](float a, float b) {
        const bool un = std::isnan(a) || std::isnan(b);
        const auto ia = std::int32_t(f32bits(a)), ib = std::int32_t(f32bits(b));
        const auto ua = std::uint32_t(ia), ub = std::uint32_t(ib);
        const bool fa = flushed(a) < flushed(b);
        const bool r[] = {!un && a == b,
                          !un && a != b,
                          !un && a < b,
                          !un && a <= b,
                          !un && a > b,
                          !un && a >= b,
                          un || a == b,
                          un || a != b,
                          un || a < b,
                          un || a <= b,
                          un || a > b,
                          un || a >= b,
                          !un,
                          un,
                          ia == ib,
                          ia != ib,
                          ia<ib, ia <= ib, ia>
                              ib,
                          ia >= ib,
                          ua<ub, ua <= ub, ua>
                              ub,
                          ua >= ub,
                          !un && fa,
                          ia < ib && !(!un && a > b),
                          !(ia < ib) && !(!un && a > b)};
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < std::size(r); ++k)
            v |= std::uint64_t(r[k]) << k;
        return v;
    };
    for (unsigned threads : {32u, 31u}) {
        SCOPED_TRACE(threads);
        auto r = runPtx(body, in, threads);
        ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
        for (unsigned l = 0; l < threads; ++l)
            EXPECT_EQ(r.out[l], expected(ops[l].first, ops[l].second)) << "lane " << l;
    }
}

// fma.rn.f32 over a whole warp (the host's FMA instruction, vectorised) and over part of one
// gives each lane hostFma's result, a NaN as the canonical one, also where the destination
// is one of the sources.
TEST(SimInstructions, FmaOverAWholeWarpAndPartOfOne)
{
    const auto ops = warpOfOperands();
    std::vector<std::uint64_t> in;
    for (auto [a, b] : ops)
        in.push_back(pack(std::uint32_t(f32bits(a)), std::uint32_t(f32bits(b))));
    for (unsigned threads : {32u, 31u}) {
        SCOPED_TRACE(threads);
        auto r = runPtx(R"(
    ld.global.v2.f32 {%f1, %f2}, [%rd27];
    fma.rn.f32 %f2, %f1, %f2, %f1;
    mov.b32 %r1, %f2;
    cvt.u64.u32 %rd1, %r1;
    st.global.u64 [%rd28], %rd1;
)",
                        in, threads);
        ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
        for (unsigned l = 0; l < threads; ++l) {
            const float a = ops[l].first, b = ops[l].second, e = kw::sim::hostFma(a, b, a);
            EXPECT_EQ(r.out[l], std::isnan(e) ? 0x7fffffffu : f32bits(e)) << "lane " << l;
        }
    }
}

namespace {
// Byte offsets, lane by lane, of the access patterns a whole warp's load or store meets:
// each half-warp one address or consecutive elements (taken in one copy or fill), and
// others (lane by lane). All within the 248 bytes that 31 lanes' inputs hold.
std::vector<std::vector<unsigned>> accessPatterns(unsigned es)
{
    std::vector<std::vector<unsigned>> pats;
    auto add = [&](auto element) {
        std::vector<unsigned> p(32);
        for (unsigned l = 0; l < 32; ++l)
            p[l] = unsigned(element(l)) * es;
        pats.push_back(p);
    };
    add([](unsigned l) { return l; });                       // contiguous
    add([](unsigned) { return 3; });                         // broadcast
    add([](unsigned l) { return (l >> 4) * 16 + 5; });       // one address per half
    add([](unsigned l) { return l & 15; });                  // the same 16 elements twice
    add([](unsigned l) { return (l & 15) + (l >> 4) * 3; }); // halves that overlap
    add([](unsigned l) { return l < 16 ? 20 : l - 16; });    // one address, then 16 elements
    add([](unsigned l) { return l < 16 ? l : 20; });         // 16 elements, then one address
    add([](unsigned l) { return (2 * l) % 31; });            // strided
    add([](unsigned l) { return 30 - l % 31; });             // backwards
    add([](unsigned l) { return l == 9 ? 25 : l & 15; });    // one lane out of step
    return pats;
}

// Each lane's input: its pattern's byte offset in the low byte, other bytes varied.
std::vector<std::uint64_t> offsetsWithNoise(const std::vector<unsigned>& pattern)
{
    std::vector<std::uint64_t> in(32);
    for (unsigned l = 0; l < 32; ++l)
        in[l] = ((0x9e3779b97f4a7c15ull * (l + 1)) & ~0xffull) | pattern[l];
    return in;
}

struct WidthCase {
    const char* type;
    unsigned es;
    bool isSigned;
};
const WidthCase kWidths[] = {{"u8", 1, false},  {"s8", 1, true},  {"u16", 2, false}, {"s16", 2, true},
                             {"u32", 4, false}, {"s32", 4, true}, {"u64", 8, false}};

// The PTX that widens a loaded value in %rd5 (loaded as `type`) and stores it as out[tid].
std::string loadAndOut(const WidthCase& w, const std::string& space)
{
    const std::string reg = w.es == 8 ? "%rd4" : w.es == 4 ? "%r1" : "%h1";
    std::string s = "    ld." + space + "." + w.type + " " + reg + ", [%rd3];\n";
    if (w.es == 8)
        s += "    mov.b64 %rd5, %rd4;\n";
    else
        s += std::string("    cvt.") + (w.isSigned ? "s64." : "u64.") + w.type + " %rd5, " + reg + ";\n";
    return s + "    st.global.u64 [%rd28], %rd5;\n";
}

std::uint64_t expectedLoad(const WidthCase& w, const std::uint8_t* p)
{
    std::uint64_t v = 0;
    std::memcpy(&v, p, w.es);
    if (w.isSigned && w.es < 8) {
        const int shift = 64 - 8 * int(w.es);
        v = std::uint64_t(std::int64_t(v << shift) >> shift);
    }
    return v;
}
} // namespace

// A whole warp's scalar loads, global and shared, of every width and pattern (each half one
// address or consecutive elements: one fill or copy; others lane by lane) give each lane
// what 31 lanes (lane by lane) and the host give it.
TEST(SimInstructions, WholeWarpLoadsOfEveryPatternAndWidth)
{
    const std::string globals = ".shared .align 8 .b8 buf[256];\n";
    for (const auto& w : kWidths)
        for (const auto& pattern : accessPatterns(w.es)) {
            const auto in = offsetsWithNoise(pattern);
            const std::string global = "    ld.global.u64 %rd1, [%rd27];\n    and.b64 %rd2, %rd1, 255;\n"
                                       "    add.s64 %rd3, %rd31, %rd2;\n"
                + loadAndOut(w, "global");
            // The same bytes copied to shared memory first, by a whole warp's u64 store.
            const std::string shared = "    ld.global.u64 %rd1, [%rd27];\n    mov.u64 %rd6, buf;\n"
                                       "    mul.wide.u32 %rd7, %r31, 8;\n    add.s64 %rd8, %rd6, %rd7;\n"
                                       "    st.shared.u64 [%rd8], %rd1;\n    bar.sync 0;\n"
                                       "    and.b64 %rd2, %rd1, 255;\n    add.s64 %rd3, %rd6, %rd2;\n"
                + loadAndOut(w, "shared");
            for (const auto* body : {&global, &shared})
                for (unsigned threads : {32u, 31u}) {
                    SCOPED_TRACE(std::string(w.type) + (body == &global ? " global " : " shared ")
                                 + std::to_string(threads) + " lanes, lane 1 at byte " + std::to_string(pattern[1]));
                    auto r = runPtx(*body, in, threads, globals);
                    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
                    const auto* bytes = reinterpret_cast<const std::uint8_t*>(in.data());
                    for (unsigned l = 0; l < threads; ++l)
                        EXPECT_EQ(r.out[l], expectedLoad(w, bytes + pattern[l])) << "lane " << l;
                }
        }
}

// A whole warp's scalar stores to shared memory of every width and pattern leave what the
// lanes written in order leave (where lanes meet, the later lane's value), as 31 lanes do.
TEST(SimInstructions, WholeWarpStoresOfEveryPatternAndWidth)
{
    const std::string globals = ".shared .align 8 .b8 buf[256];\n";
    for (const auto& w : {kWidths[0], kWidths[2], kWidths[4], kWidths[6]})
        for (const auto& pattern : accessPatterns(w.es)) {
            const auto in = offsetsWithNoise(pattern);
            const std::string value = w.es == 8 ? "%rd1" : w.es == 4 ? "%r1" : "%h1";
            const std::string narrow
                = w.es == 8 ? "" : std::string("    cvt.") + w.type + ".u64 " + value + ", %rd1;\n";
            const std::string body = "    ld.global.u64 %rd1, [%rd27];\n    mov.u64 %rd6, buf;\n"
                                     "    mul.wide.u32 %rd7, %r31, 8;\n    add.s64 %rd8, %rd6, %rd7;\n"
                                     "    mov.u64 %rd9, 0;\n    st.shared.u64 [%rd8], %rd9;\n    bar.sync 0;\n"
                                     "    and.b64 %rd2, %rd1, 255;\n    add.s64 %rd3, %rd6, %rd2;\n"
                + narrow + "    st.shared." + w.type + " [%rd3], " + value
                + ";\n    bar.sync 0;\n    ld.shared.u64 %rd5, [%rd8];\n    st.global.u64 [%rd28], %rd5;\n";
            for (unsigned threads : {32u, 31u}) {
                SCOPED_TRACE(std::string(w.type) + " " + std::to_string(threads) + " lanes, lane 1 at byte "
                             + std::to_string(pattern[1]));
                auto r = runPtx(body, in, threads, globals);
                ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
                std::uint8_t expected[256] = {};
                for (unsigned l = 0; l < threads; ++l)
                    std::memcpy(expected + pattern[l], &in[l], w.es);
                for (unsigned l = 0; l < threads; ++l) {
                    std::uint64_t e;
                    std::memcpy(&e, expected + 8 * l, 8);
                    EXPECT_EQ(r.out[l], e) << "lane " << l;
                }
            }
        }
}

namespace {
// The values two loads read: lane l stores v[l] at buf + 4l and buf + 128 + 4l.
std::vector<float> loadedValues()
{
    std::vector<float> v(32);
    for (unsigned l = 0; l < 32; ++l)
        v[l] = float(l) * 0.37f - 5.0f;
    v[1] = -0.0f;
    v[2] = kInf;
    v[3] = -kInf;
    v[4] = std::bit_cast<float>(0x7fc00001u); // a NaN with a payload
    v[5] = 1e-40f;                            // subnormal
    v[6] = 3e38f;
    v[7] = -3e38f;
    v[8] = 1.0f / 3.0f;
    return v;
}

// Two f32 loads whose addresses follow patterns x and y, then an fma of their values.
std::string loadLoadFma(const std::string& fma, const std::string& result, const std::string& other)
{
    return R"(
    ld.global.u64 %rd1, [%rd27];
    mov.u64 %rd6, buf;
    mul.wide.u32 %rd7, %r31, 4;
    add.s64 %rd8, %rd6, %rd7;
    shr.u64 %rd9, %rd1, 32;
    cvt.u32.u64 %r1, %rd9;
    st.shared.u32 [%rd8], %r1;
    st.shared.u32 [%rd8+128], %r1;
    bar.sync 0;
    and.b64 %rd2, %rd1, 255;
    add.s64 %rd3, %rd6, %rd2;
    shr.u64 %rd10, %rd1, 8;
    and.b64 %rd11, %rd10, 255;
    add.s64 %rd4, %rd6, %rd11;
    cvt.rn.f32.u32 %f3, %r31;
    ld.shared.f32 %f1, [%rd3];
    ld.shared.f32 %f2, [%rd4+128];
    )" + fma
        + R"(
    mov.b32 %r2, )"
        + result + R"(;
    mov.b32 %r3, )"
        + other + R"(;
    mov.b64 %rd5, {%r2, %r3};
    st.global.u64 [%rd28], %rd5;
)";
}
} // namespace

// Two f32 loads and the fma of their values, which a whole warp runs as one step, give what
// the host gives, for loads of every pattern (each half-warp one address, consecutive
// elements, or neither), the operands in either order, the result in c or in a loaded
// register, special values (NaN made canonical), and 31 lanes (one by one).
TEST(SimInstructions, LoadsFeedingAnFmaGiveTheHostsValuesForEveryPattern)
{
    const std::string globals = ".shared .align 8 .b8 buf[256];\n";
    const std::vector<float> v = loadedValues();
    const auto patterns = accessPatterns(4);
    struct Form {
        const char* fma;
        const char* result;
        bool xKept; // %f1 still holds x afterwards
    };
    const Form forms[] = {{"fma.rn.f32 %f4, %f1, %f2, %f3;", "%f4", true},
                          {"fma.rn.f32 %f4, %f2, %f1, %f3;", "%f4", true},
                          {"fma.rn.f32 %f3, %f1, %f2, %f3;", "%f3", true},
                          {"fma.rn.f32 %f1, %f1, %f2, %f3;", "%f1", false}};
    for (std::size_t i = 0; i < patterns.size(); ++i)
        for (std::size_t k : {0u, 1u, 3u}) {
            const auto& px = patterns[i];
            const auto& py = patterns[(i + k) % patterns.size()];
            std::vector<std::uint64_t> in(32);
            for (unsigned l = 0; l < 32; ++l)
                in[l] = (std::uint64_t(std::bit_cast<std::uint32_t>(v[l])) << 32) | (py[l] << 8) | px[l];
            for (const Form& form : forms)
                for (const bool keepY : {false, true}) {
                    if (!keepY && !form.xKept)
                        continue;
                    const std::string body = loadLoadFma(form.fma, form.result, keepY ? "%f2" : "%f1");
                    for (unsigned threads : {32u, 31u}) {
                        SCOPED_TRACE(std::string(form.fma) + " " + std::to_string(threads) + " lanes, patterns "
                                     + std::to_string(i) + ", " + std::to_string((i + k) % patterns.size()));
                        auto r = runPtx(body, in, threads, globals);
                        ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
                        for (unsigned l = 0; l < threads; ++l) {
                            const float x = v[px[l] / 4], y = v[py[l] / 4];
                            const float f = kw::sim::hostFma(x, y, float(l));
                            const std::uint32_t expected = f != f ? 0x7fffffffu : std::bit_cast<std::uint32_t>(f);
                            EXPECT_EQ(lo(r.out[l]), expected) << "lane " << l;
                            EXPECT_EQ(hi(r.out[l]), std::bit_cast<std::uint32_t>(keepY ? y : x)) << "lane " << l;
                        }
                    }
                }
        }
}

// A load out of bounds in front of an fma that would run with it as one step is reported as
// when the two run one by one (an fma.rz is never joined to the loads).
TEST(SimInstructions, ALoadOutOfBoundsBeforeAnFmaFaultsAsItDoesAlone)
{
    const std::string globals = ".shared .align 8 .b8 buf[256];\n";
    const std::vector<std::uint64_t> in(32, 0); // x's address is past the shared memory's end
    const std::string far = R"(
    mov.u64 %rd6, buf;
    add.s64 %rd3, %rd6, 4096;
    mov.u64 %rd4, %rd6;
    cvt.rn.f32.u32 %f3, %r31;
    ld.shared.f32 %f1, [%rd3];
    ld.shared.f32 %f2, [%rd4];
    )";
    auto joined = runPtx(far + "fma.rn.f32 %f4, %f1, %f2, %f3;\n", in, 32, globals);
    auto alone = runPtx(far + "fma.rz.f32 %f4, %f1, %f2, %f3;\n", in, 32, globals);
    ASSERT_FALSE(joined.report.ok);
    ASSERT_FALSE(alone.report.ok);
    ASSERT_TRUE(joined.report.fault && alone.report.fault);
    EXPECT_EQ(kwtest::faultMessage(joined.report.fault), kwtest::faultMessage(alone.report.fault));
    EXPECT_EQ(joined.report.fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_EQ(joined.report.fault->kind, alone.report.fault->kind);
    EXPECT_EQ(joined.report.fault->thread, alone.report.fault->thread);
    EXPECT_EQ(joined.report.fault->line, alone.report.fault->line);
}

namespace {
// A chain of `steps` loads-and-fma steps, each adding into the next (the tiled product's
// unrolled inner loop): step t's x at [%rd3 + 4t] (at [%rd5 + 4t], whose lanes follow another
// pattern, for step `other`), its y at [%rd4 + 384 + 4t], the first c the lane's number.
// Shared memory holds 256 values, special ones among them; afterwards each lane stores the
// last sum and the x of step `steps / 2`, which the kernel thus reads again.
std::string loadFmaChain(int steps, int other)
{
    std::string s = R"(
    .reg .f32 %g<100>;
    ld.global.u64 %rd1, [%rd27];
    mov.u64 %rd6, buf;
    mul.wide.u32 %rd7, %r31, 4;
    add.s64 %rd8, %rd6, %rd7;
)";
    for (int j = 0; j < 8; ++j)
        s += fmt::format("    add.u32 %r5, %r31, {};\n    cvt.rn.f32.u32 %f1, %r5;\n"
                         "    mul.rn.f32 %f1, %f1, 0f3EBD70A4;\n    add.rn.f32 %f1, %f1, 0fC0A00000;\n"
                         "    st.shared.f32 [%rd8+{}], %f1;\n",
                         32 * j, 128 * j);
    s += R"(
    mov.u32 %r6, 0x7fc00001;
    st.shared.u32 [%rd6+148], %r6;
    mov.u32 %r6, 0x7f800000;
    st.shared.u32 [%rd6+520], %r6;
    mov.u32 %r6, 0;
    st.shared.u32 [%rd6+580], %r6;
    bar.sync 0;
    and.b64 %rd2, %rd1, 255;
    add.s64 %rd3, %rd6, %rd2;
    shr.u64 %rd9, %rd1, 8;
    and.b64 %rd9, %rd9, 255;
    add.s64 %rd4, %rd6, %rd9;
    shr.u64 %rd10, %rd1, 16;
    and.b64 %rd10, %rd10, 255;
    add.s64 %rd5, %rd6, %rd10;
    cvt.rn.f32.u32 %f3, %r31;
)";
    for (int t = 0; t < steps; ++t)
        s += fmt::format("    ld.shared.f32 %g{}, [{}+{}];\n    ld.shared.f32 %g{}, [%rd4+{}];\n"
                         "    fma.rn.f32 %g{}, %g{}, %g{}, {};\n",
                         3 * t, t == other ? "%rd5" : "%rd3", 4 * t, 3 * t + 1, 384 + 4 * t, 3 * t + 2, 3 * t,
                         3 * t + 1, t == 0 ? std::string("%f3") : fmt::format("%g{}", 3 * t - 1));
    s += fmt::format("    mov.b32 %r2, %g{};\n    mov.b32 %r3, %g{};\n    mov.b64 %rd11, {{%r2, %r3}};\n"
                     "    st.global.u64 [%rd28], %rd11;\n",
                     3 * steps - 1, 3 * (steps / 2));
    return s;
}
} // namespace

// Chains of loads and fmas, which a whole warp runs as one step writing only the registers
// read again, give what the host gives, however long (one step, as long as a chain may be,
// longer: two chains), with a step whose load's lanes are irregular at the start, in the
// middle or at the end (the steps before run as one, the rest one by one), loads of each
// regular pattern, NaN, infinities and zeros among the values, and 31 lanes (one by one).
TEST(SimInstructions, ChainsOfLoadsAndFmasGiveTheHostsValues)
{
    const std::string globals = ".shared .align 4 .b8 buf[1024];\n";
    const auto patterns = accessPatterns(4);
    const unsigned regular[] = {0, 1, 2, 3}, irregular = 7;
    for (int steps : {1, 2, 5, 16, 21, 22, 30})
        for (int other : {-1, 0, steps / 2, steps - 1})
            for (unsigned k = 0; k < 4; ++k) {
                const auto &px = patterns[regular[k]], &py = patterns[regular[(k + 1) % 4]];
                const auto& pz = patterns[other >= 0 ? irregular : regular[k]];
                std::vector<std::uint64_t> in(32);
                for (unsigned l = 0; l < 32; ++l)
                    in[l] = (std::uint64_t(pz[l]) << 16) | (py[l] << 8) | px[l];
                for (unsigned threads : {32u, 31u}) {
                    SCOPED_TRACE(fmt::format("{} steps, step {} irregular, patterns {} {}, {} lanes", steps, other,
                                             regular[k], regular[(k + 1) % 4], threads));
                    std::vector<float> v(256);
                    for (unsigned i = 0; i < 256; ++i) {
                        volatile float m = float(i) * 0.37f; // rounded on its own, as mul.rn
                        v[i] = i % 32 < threads ? m - 5.0f : 0.0f;
                    }
                    v[37] = std::bit_cast<float>(0x7fc00001u);
                    v[130] = kInf;
                    v[145] = 0.0f;
                    auto r = runPtx(loadFmaChain(steps, other), in, threads, globals);
                    ASSERT_TRUE(r.report.ok) << kwtest::faultMessage(r.report.fault);
                    for (unsigned l = 0; l < threads; ++l) {
                        float sum = float(l);
                        std::uint32_t probe = 0;
                        for (int t = 0; t < steps; ++t) {
                            const float x = v[((t == other ? pz[l] : px[l]) + 4 * t) / 4];
                            const float y = v[(py[l] + 384 + 4 * t) / 4];
                            sum = kw::sim::hostFma(x, y, sum);
                            if (t == steps / 2)
                                probe = std::bit_cast<std::uint32_t>(x);
                        }
                        EXPECT_EQ(lo(r.out[l]), sum != sum ? 0x7fffffffu : std::bit_cast<std::uint32_t>(sum))
                            << "lane " << l;
                        EXPECT_EQ(hi(r.out[l]), probe) << "lane " << l;
                    }
                }
            }
}

// A load out of bounds in the middle of a chain faults as when the chain is broken there (an
// fma.rz is never part of one): the same thread, line and message.
TEST(SimInstructions, ALoadOutOfBoundsInsideAChainFaultsAsItDoesAlone)
{
    const std::string globals = ".shared .align 4 .b8 buf[1024];\n";
    const std::vector<std::uint64_t> in(32, 0);
    // Step 6's x through an address register of its own, or through the one every other x
    // load shares (then checked with them at their lowest and highest offset).
    for (const int other : {6, -1}) {
        SCOPED_TRACE(other < 0 ? "one address register" : "an address register of its own");
        std::string chain = loadFmaChain(12, other);
        const std::string x = other < 0 ? "[%rd3+24]" : "[%rd5+24]";
        const auto far = chain.find(x);
        ASSERT_NE(far, std::string::npos);
        chain.replace(far, x.size(), x.substr(0, 6) + "4000]");
        std::string broken = chain;
        const auto at = broken.find("fma.rn.f32 %g20");
        ASSERT_NE(at, std::string::npos);
        broken.replace(at, 10, "fma.rz.f32");
        auto joined = runPtx(chain, in, 32, globals);
        auto alone = runPtx(broken, in, 32, globals);
        ASSERT_FALSE(joined.report.ok);
        ASSERT_FALSE(alone.report.ok);
        ASSERT_TRUE(joined.report.fault && alone.report.fault);
        EXPECT_EQ(kwtest::faultMessage(joined.report.fault), kwtest::faultMessage(alone.report.fault));
        EXPECT_EQ(joined.report.fault->kind, kw::FaultKind::OutOfBounds);
        EXPECT_EQ(joined.report.fault->thread, alone.report.fault->thread);
        EXPECT_EQ(joined.report.fault->line, alone.report.fault->line);
    }
}
