// mma.sync, ldmatrix, stmatrix and movmatrix on the simulator: the PTX under hand-written
// tensor-core kernels. PTX specifies where every element of these fragments lies, and
// programs fill and read them themselves, so the kernels here place each element with
// the ISA's own tables (written out as the ISA states them, condition by condition), and
// the expected values come from a product computed here. Inputs are chosen so that every
// product and sum is exact.
#include "PtxHarness.hpp"
#include "SimTestSupport.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

using namespace kwtest;

namespace {

// D = A B + C, all row-major: A m x k, B k x n, C m x n.
std::vector<double> product(int m, int n, int k, const std::vector<double>& a, const std::vector<double>& b,
                            const std::vector<double>& c)
{
    std::vector<double> d(std::size_t(m * n));
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double s = c[std::size_t(r * n + col)];
            for (int i = 0; i < k; ++i)
                s += a[std::size_t(r * k + i)] * b[std::size_t(i * n + col)];
            d[std::size_t(r * n + col)] = s;
        }
    return d;
}

std::vector<double> pattern(std::size_t n, int mod, int shift, double scale = 1)
{
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = scale * double(int((i * 7 + i / 5) % std::size_t(mod)) - shift);
    return v;
}

// Each kernel is one warp: A, B, C row-major in global memory, D written row-major.
const char* kSource = R"(
#define GID ((threadIdx.x % 32) >> 2)
#define TIG (threadIdx.x % 4)

// m16n8k16, f16 or bf16 multiplicands (16-bit bits in memory), f32 accumulators.
#define M16N8K16_16BIT(NAME, TYPE)                                                                          \
__global__ void NAME(const unsigned short* A, const unsigned short* B, const float* C, float* D)           \
{                                                                                                           \
    unsigned a[4] = {}, b[2] = {};                                                                          \
    float c[4], d[4];                                                                                       \
    for (int i = 0; i < 8; ++i) {                                                                           \
        int row = (i < 2 || (i >= 4 && i < 6)) ? GID : GID + 8;                                             \
        int col = i < 4 ? TIG * 2 + (i & 1) : TIG * 2 + (i & 1) + 8;                                        \
        a[i / 2] |= unsigned(A[row * 16 + col]) << (16 * (i % 2));                                          \
    }                                                                                                       \
    for (int i = 0; i < 4; ++i) {                                                                           \
        int row = i < 2 ? TIG * 2 + (i & 1) : TIG * 2 + (i & 1) + 8;                                        \
        b[i / 2] |= unsigned(B[row * 8 + GID]) << (16 * (i % 2));                                           \
    }                                                                                                       \
    for (int i = 0; i < 4; ++i)                                                                             \
        c[i] = C[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)];                                          \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." TYPE "." TYPE ".f32 "                             \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                                \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                           \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),                        \
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));                                             \
    for (int i = 0; i < 4; ++i)                                                                             \
        D[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)] = d[i];                                          \
}
M16N8K16_16BIT(f16_m16n8k16, "f16")
M16N8K16_16BIT(bf16_m16n8k16, "bf16")

// m16n8k8 with f16 multiplicands and f16 accumulators (two halves to a register).
__global__ void f16_m16n8k8(const unsigned short* A, const unsigned short* B, const unsigned short* C,
                            unsigned short* D)
{
    unsigned a[2] = {}, b = 0, c[2] = {}, d[2];
    for (int i = 0; i < 4; ++i) {
        int row = i < 2 ? GID : GID + 8;
        int col = TIG * 2 + (i & 1);
        a[i / 2] |= unsigned(A[row * 8 + col]) << (16 * (i % 2));
    }
    for (int i = 0; i < 2; ++i)
        b |= unsigned(B[(TIG * 2 + i) * 8 + GID]) << (16 * i);
    for (int i = 0; i < 4; ++i)
        c[i / 2] |= unsigned(C[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)]) << (16 * (i % 2));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 4; ++i)
        D[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)] = (unsigned short)(d[i / 2] >> (16 * (i % 2)));
}

// m16n8k8 with tf32 multiplicands.
__global__ void tf32_m16n8k8(const float* A, const float* B, const float* C, float* D)
{
    unsigned a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < 4; ++i) {
        int row = (i == 0 || i == 2) ? GID : GID + 8;
        int col = i < 2 ? TIG : TIG + 4;
        a[i] = __float_as_uint(A[row * 8 + col]);
    }
    for (int i = 0; i < 2; ++i)
        b[i] = __float_as_uint(B[(i == 0 ? TIG : TIG + 4) * 8 + GID]);
    for (int i = 0; i < 4; ++i)
        c[i] = C[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; ++i)
        D[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)] = d[i];
}

// m16n8k32, s8 times u8, into s32 with .satfinite.
__global__ void s8u8_m16n8k32(const signed char* A, const unsigned char* B, const int* C, int* D)
{
    unsigned a[4] = {}, b[2] = {};
    int c[4], d[4];
    for (int i = 0; i < 16; ++i) {
        int row = (i < 4 || (i >= 8 && i < 12)) ? GID : GID + 8;
        int col = i < 8 ? TIG * 4 + (i & 3) : TIG * 4 + (i & 3) + 16;
        a[i / 4] |= unsigned((unsigned char)A[row * 32 + col]) << (8 * (i % 4));
    }
    for (int i = 0; i < 8; ++i) {
        int row = i < 4 ? TIG * 4 + (i & 3) : TIG * 4 + (i & 3) + 16;
        b[i / 4] |= unsigned(B[row * 8 + GID]) << (8 * (i % 4));
    }
    for (int i = 0; i < 4; ++i)
        c[i] = C[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; ++i)
        D[(i < 2 ? GID : GID + 8) * 8 + TIG * 2 + (i & 1)] = d[i];
}

// m8n8k16 with s8 multiplicands.
__global__ void s8_m8n8k16(const signed char* A, const signed char* B, const int* C, int* D)
{
    unsigned a = 0, b = 0;
    int c[2], d[2];
    for (int i = 0; i < 4; ++i) {
        a |= unsigned((unsigned char)A[GID * 16 + TIG * 4 + i]) << (8 * i);
        b |= unsigned((unsigned char)B[(TIG * 4 + i) * 8 + GID]) << (8 * i);
    }
    for (int i = 0; i < 2; ++i)
        c[i] = C[GID * 8 + TIG * 2 + i];
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a), "r"(b), "r"(c[0]), "r"(c[1]));
    for (int i = 0; i < 2; ++i)
        D[GID * 8 + TIG * 2 + i] = d[i];
}

// m8n8k4 with f64.
__global__ void f64_m8n8k4(const double* A, const double* B, const double* C, double* D)
{
    double a = A[GID * 4 + TIG], b = B[TIG * 8 + GID], c[2], d[2];
    for (int i = 0; i < 2; ++i)
        c[i] = C[GID * 8 + TIG * 2 + i];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d[0]), "=d"(d[1]) : "d"(a), "d"(b), "d"(c[0]), "d"(c[1]));
    for (int i = 0; i < 2; ++i)
        D[GID * 8 + TIG * 2 + i] = d[i];
}
)";

template <class T> std::vector<T> as(const std::vector<double>& v)
{
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = T(v[i]);
    return out;
}

std::vector<std::uint16_t> bits16(const std::vector<double>& v, bool bf16)
{
    std::vector<std::uint16_t> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out[i] = bf16 ? bf16Bits(v[i]) : halfBits(v[i]);
    return out;
}

// Launches one warp of `kernel` on (A, B, C, D) and returns D.
template <class D>
std::vector<D> runWarp(const std::string& kernel, kw::BufferArg a, kw::BufferArg b, kw::BufferArg c, std::size_t n)
{
    auto img = compileFor(kSource, kernel, "sm_80");
    if (!img)
        return {};
    std::vector<kw::BufferArg> bufs{std::move(a), std::move(b), std::move(c), buffer("d", std::vector<D>(n))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
    EXPECT_TRUE(rep.ok) << kernel << ": " << faultMessage(rep.fault);
    return values<D>(bufs[3]);
}

} // namespace

TEST(SimMma, SixteenBitMultiplicandsIntoFloatInTheLayoutPtxGives)
{
    KW_REQUIRE_NVRTC();
    for (bool bf16 : {false, true}) {
        const auto a = pattern(16 * 16, 9, 4, 0.5), b = pattern(16 * 8, 7, 3), c = pattern(16 * 8, 11, 5, 0.25);
        const auto d = runWarp<float>(bf16 ? "bf16_m16n8k16" : "f16_m16n8k16", buffer("a", bits16(a, bf16)),
                                      buffer("b", bits16(b, bf16)), buffer("c", as<float>(c)), 16 * 8);
        const auto want = product(16, 8, 16, a, b, c);
        ASSERT_EQ(d.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(d[i], float(want[i])) << (bf16 ? "bf16 " : "f16 ") << i;
    }
}

TEST(SimMma, HalfAccumulatorsTwoToARegister)
{
    KW_REQUIRE_NVRTC();
    const auto a = pattern(16 * 8, 7, 3), b = pattern(8 * 8, 5, 2, 0.5), c = pattern(16 * 8, 13, 6);
    const auto d = runWarp<std::uint16_t>("f16_m16n8k8", buffer("a", bits16(a, false)), buffer("b", bits16(b, false)),
                                          buffer("c", bits16(c, false)), 16 * 8);
    const auto want = product(16, 8, 8, a, b, c);
    ASSERT_EQ(d.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(d[i], halfBits(want[i])) << i;
}

TEST(SimMma, Tf32MultiplicandsIgnoreTheLowMantissaBits)
{
    KW_REQUIRE_NVRTC();
    auto a = pattern(16 * 8, 9, 4, 0.5), b = pattern(8 * 8, 7, 3);
    const auto c = pattern(16 * 8, 5, 2);
    std::vector<float> af = as<float>(a);
    // Below tf32's 10 mantissa bits: the tensor core does not see it.
    for (float& x : af)
        if (x != 0)
            x = std::nextafter(x, 2 * x);
    const auto d
        = runWarp<float>("tf32_m16n8k8", buffer("a", af), buffer("b", as<float>(b)), buffer("c", as<float>(c)), 16 * 8);
    const auto want = product(16, 8, 8, a, b, c);
    ASSERT_EQ(d.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(d[i], float(want[i])) << i;
}

TEST(SimMma, EightBitIntegersSaturateWithSatfinite)
{
    KW_REQUIRE_NVRTC();
    auto a = pattern(16 * 32, 255, 127), b = pattern(32 * 8, 256, 0), c = pattern(16 * 8, 1000, 500);
    c[0] = INT_MAX - 10; // its row's product is positive: the sum saturates
    c[9] = INT_MIN + 10; // and a negative one
    for (int k = 0; k < 32; ++k) {
        a[std::size_t(k)] = 100, a[std::size_t(32 + k)] = -100;
    }
    const auto d = runWarp<std::int32_t>("s8u8_m16n8k32", buffer("a", as<std::int8_t>(a)),
                                         buffer("b", as<std::uint8_t>(b)), buffer("c", as<std::int32_t>(c)), 16 * 8);
    const auto want = product(16, 8, 32, a, b, c);
    ASSERT_EQ(d.size(), want.size());
    ASSERT_GT(want[0], double(INT_MAX));
    ASSERT_LT(want[9], double(INT_MIN));
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(d[i], std::int32_t(std::clamp(want[i], double(INT_MIN), double(INT_MAX)))) << i;
}

TEST(SimMma, TheEightRowShapesOfIntegersAndDoubles)
{
    KW_REQUIRE_NVRTC();
    {
        const auto a = pattern(8 * 16, 255, 127), b = pattern(16 * 8, 201, 100), c = pattern(8 * 8, 99, 49);
        const auto d = runWarp<std::int32_t>("s8_m8n8k16", buffer("a", as<std::int8_t>(a)),
                                             buffer("b", as<std::int8_t>(b)), buffer("c", as<std::int32_t>(c)), 64);
        const auto want = product(8, 8, 16, a, b, c);
        ASSERT_EQ(d.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(d[i], std::int32_t(want[i])) << "s8 " << i;
    }
    {
        const auto a = pattern(8 * 4, 9, 4, 0.125), b = pattern(4 * 8, 11, 5, 3), c = pattern(8 * 8, 7, 3, 0.5);
        const auto d = runWarp<double>("f64_m8n8k4", buffer("a", a), buffer("b", b), buffer("c", c), 64);
        const auto want = product(8, 8, 4, a, b, c);
        ASSERT_EQ(d.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(d[i], want[i]) << "f64 " << i;
    }
}

namespace {

const char* kRowsSource = R"(
// Four 8 x 8 matrices of 16-bit values, rows padded to 16 elements in shared memory. Lane
// 8i + r gives row r of matrix i. out[lane * 8 + i]: register i of .x4, then of .x4.trans.
__global__ void load_rows(const unsigned short* m, unsigned* out)
{
    __shared__ __align__(16) unsigned short s[4 * 8 * 16];
    const int lane = threadIdx.x;
    for (int i = lane; i < 4 * 64; i += 32)
        s[(i / 8) * 16 + i % 8] = m[i];
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[lane * 16]);
    unsigned d[4], t[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(t[0]), "=r"(t[1]), "=r"(t[2]), "=r"(t[3]) : "r"(addr));
    for (int i = 0; i < 4; ++i) {
        out[lane * 8 + i] = d[i];
        out[lane * 8 + 4 + i] = t[i];
    }
}

// .x2, with generic addresses, reads those of lanes 0-15 only: the others give a null
// pointer. out[lane * 2 + i]: register i.
__global__ void load_two(const unsigned short* m, unsigned* out)
{
    __shared__ __align__(16) unsigned short s[2 * 64];
    const int lane = threadIdx.x;
    for (int i = lane; i < 2 * 64; i += 32)
        s[i] = m[i];
    __syncwarp();
    const unsigned short* row = lane < 16 ? &s[lane * 8] : nullptr;
    unsigned d[2];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0,%1}, [%2];" : "=r"(d[0]), "=r"(d[1]) : "l"(row));
    out[lane * 2] = d[0];
    out[lane * 2 + 1] = d[1];
}

// One matrix through movmatrix and stmatrix: out[0..63] the stored transpose of the
// loaded registers, out[64..127] the loaded registers stored with .trans, out[128..191]
// them stored as they are.
__global__ void store_rows(const unsigned short* m, unsigned short* out)
{
    __shared__ __align__(16) unsigned short s[64], t[3 * 64];
    const int lane = threadIdx.x;
    for (int i = lane; i < 64; i += 32)
        s[i] = m[i];
    __syncwarp();
    unsigned d, x;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(d) : "r"((unsigned)__cvta_generic_to_shared(&s[(lane % 8) * 8])));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(x) : "r"(d));
    unsigned short* rows[3] = {&t[(lane % 8) * 8], &t[64 + (lane % 8) * 8], &t[128 + (lane % 8) * 8]};
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
                 :: "r"((unsigned)__cvta_generic_to_shared(rows[0])), "r"(x) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                 :: "r"((unsigned)__cvta_generic_to_shared(rows[1])), "r"(d) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
                 :: "r"((unsigned)__cvta_generic_to_shared(rows[2])), "r"(d) : "memory");
    __syncwarp();
    for (int i = lane; i < 3 * 64; i += 32)
        out[i] = t[i];
}

// Misuse: mode 0 a row address off 16 bytes, mode 1 a warp split around the mma.
__global__ void misuse(float* out, int mode)
{
    __shared__ __align__(16) unsigned short s[64];
    const int lane = threadIdx.x;
    s[lane] = s[lane + 32] = 0;
    __syncwarp();
    unsigned d = 0, addr = (unsigned)__cvta_generic_to_shared(&s[(lane % 8) * 8]) + (mode == 0 && lane == 3 ? 2 : 0);
    float f[4] = {};
    if (mode == 0)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(d) : "r"(addr)); // LDMATRIX
    else if (lane < 16)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(d), "r"(d), "r"(d)); // SPLIT
    out[lane] = f[0] + float(d);
}
)";

// The 16-bit value at (r, c) of the matrix i whose elements are m[i * 64 + r * 8 + c].
std::uint16_t elem(const std::vector<std::uint16_t>& m, int i, int r, int c)
{
    return m[std::size_t(i * 64 + r * 8 + c)];
}

std::vector<std::uint16_t> distinct(std::size_t n)
{
    std::vector<std::uint16_t> m(n);
    for (std::size_t i = 0; i < n; ++i)
        m[i] = std::uint16_t(0x1000 + i * 3);
    return m;
}

} // namespace

TEST(SimMma, LdmatrixGivesEachLaneItsRowPairOrColumnPair)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kRowsSource, "load_rows", "sm_90");
    ASSERT_TRUE(img);
    const auto m = distinct(4 * 64);
    std::vector<kw::BufferArg> bufs{buffer("m", m), buffer("out", std::vector<std::uint32_t>(32 * 8))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto out = values<std::uint32_t>(bufs[1]);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const int g = lane / 4, t = lane % 4;
            const std::uint32_t plain = elem(m, i, g, 2 * t) | std::uint32_t(elem(m, i, g, 2 * t + 1)) << 16;
            const std::uint32_t trans = elem(m, i, 2 * t, g) | std::uint32_t(elem(m, i, 2 * t + 1, g)) << 16;
            ASSERT_EQ(out[std::size_t(lane * 8 + i)], plain) << "lane " << lane << " matrix " << i;
            ASSERT_EQ(out[std::size_t(lane * 8 + 4 + i)], trans) << "lane " << lane << " matrix " << i << " .trans";
        }
}

TEST(SimMma, LdmatrixX2ReadsOnlyTheFirstSixteenLanesAddresses)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kRowsSource, "load_two", "sm_90");
    ASSERT_TRUE(img);
    const auto m = distinct(2 * 64);
    std::vector<kw::BufferArg> bufs{buffer("m", m), buffer("out", std::vector<std::uint32_t>(32 * 2))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto out = values<std::uint32_t>(bufs[1]);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 2; ++i) {
            const int g = lane / 4, t = lane % 4;
            ASSERT_EQ(out[std::size_t(lane * 2 + i)],
                      elem(m, i, g, 2 * t) | std::uint32_t(elem(m, i, g, 2 * t + 1)) << 16)
                << "lane " << lane << " matrix " << i;
        }
}

TEST(SimMma, MovmatrixAndStmatrixTransposeAndStoreRows)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kRowsSource, "store_rows", "sm_90");
    ASSERT_TRUE(img);
    const auto m = distinct(64);
    std::vector<kw::BufferArg> bufs{buffer("m", m), buffer("out", std::vector<std::uint16_t>(3 * 64))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto out = values<std::uint16_t>(bufs[1]);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
            ASSERT_EQ(out[std::size_t(r * 8 + c)], elem(m, 0, c, r)) << "movmatrix then stmatrix " << r << "," << c;
            ASSERT_EQ(out[std::size_t(64 + r * 8 + c)], elem(m, 0, c, r)) << "stmatrix.trans " << r << "," << c;
            ASSERT_EQ(out[std::size_t(128 + r * 8 + c)], elem(m, 0, r, c)) << "stmatrix " << r << "," << c;
        }
}

TEST(SimMma, AMisalignedRowOrASplitWarpFaultsAtItsLine)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kRowsSource, "misuse", "sm_90");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int mode : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<float>(32))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar(mode)}, config({1}, {32}));
        ASSERT_FALSE(rep.ok);
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->kind, mode == 0 ? kw::FaultKind::MisalignedAddress : kw::FaultKind::Other)
            << rep.fault->message;
        EXPECT_EQ(rep.fault->line, lineOf(kRowsSource, mode == 0 ? "// LDMATRIX" : "// SPLIT")) << rep.fault->message;
        if (mode == 1)
            EXPECT_TRUE(contains(rep.fault->message, "mma.sync needs all 32 lanes")) << rep.fault->message;
    }
}

namespace {

// A 32 x 32 x 32 f16 GEMM as hand-written tensor-core kernels do it: tiles in shared
// memory, A's fragments by ldmatrix.x4, B's (row-major in memory) by ldmatrix.x4.trans,
// mma.sync m16n8k16 into f32. Four warps, each a 16 x 16 tile of C (two n8 products).
const char* kGemmSource = R"(
#include <cuda_fp16.h>
#define N 32
__global__ void gemm(const half* A, const half* B, float* C)
{
    __shared__ __align__(16) half As[N * N], Bs[N * N];
    for (int i = threadIdx.x; i < N * N; i += blockDim.x) {
        As[i] = A[i];
        Bs[i] = B[i];
    }
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = (warp / 2) * 16, col0 = (warp % 2) * 16;
    float acc[2][4] = {};
    for (int k0 = 0; k0 < N; k0 += 16) {
        unsigned a[4], b[4];
        unsigned pa = (unsigned)__cvta_generic_to_shared(&As[(row0 + lane % 16) * N + k0 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
        unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[(k0 + lane % 16) * N + col0 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(pb));
        for (int j = 0; j < 2; ++j)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * j]), "r"(b[2 * j + 1]));
    }
    const int g = lane / 4, t = lane % 4;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 4; ++i)
            C[(row0 + g + 8 * (i / 2)) * N + col0 + 8 * j + 2 * t + i % 2] = acc[j][i];
}
)";

} // namespace

TEST(SimMma, ALdmatrixAndMmaGemmMatchesTheProductAndIsRaceFree)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kGemmSource, "gemm", "sm_80");
    ASSERT_TRUE(img);
    const auto a = pattern(32 * 32, 9, 4, 0.5), b = pattern(32 * 32, 7, 3), zero = std::vector<double>(32 * 32, 0.0);
    std::vector<kw::BufferArg> bufs{buffer("a", bits16(a, false)), buffer("b", bits16(b, false)),
                                    buffer("c", std::vector<float>(32 * 32, -1.0f))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2)}, racechecked({1}, {128}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
    const auto want = product(32, 32, 32, a, b, zero);
    const auto c = values<float>(bufs[2]);
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(c[i], float(want[i])) << i;
}

TEST(SimMma, ShapesAndTypesItDoesNotRunAreRefusedWithTheReason)
{
    const std::pair<const char*, const char*> cases[] = {
        {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1,%r2,%r3}, {%r4,%r5}, "
         "{%f0,%f1,%f2,%f3};",
         "8-bit and smaller floating-point"},
        {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, {%r0,%r1}, {%r2,%r3}, "
         "{%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7};",
         "quad-pair"},
        {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r0,%r1,%r2,%r3}, {%r4,%r5,%r6,%r7}, {%r8,%r9}, "
         "{%r0,%r1,%r2,%r3};",
         "sub-byte"},
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1}, {%r2,%r3}, "
         "{%f0,%f1,%f2,%f3};",
         "does not hold a 16 x 16 matrix"},
        {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0,%r1}, [%rd27];", "only the m8n8 shape"},
        {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0,%r1}, [%rd27];", ".x4 takes 4"},
    };
    for (const auto& [ptx, why] : cases) {
        auto r = runPtx(std::string(ptx) + "\n", {});
        ASSERT_TRUE(r.report.fault) << ptx;
        EXPECT_EQ(r.report.fault->kind, kw::FaultKind::Unsupported) << ptx;
        EXPECT_TRUE(contains(r.report.fault->message, why)) << ptx << "\n" << r.report.fault->message;
        EXPECT_EQ(r.report.fault->line, 20) << ptx;
    }
}
