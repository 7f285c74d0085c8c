// Warp matrix instructions (nvcuda::wmma, PTX wmma.load/store/mma) on the simulator:
// every shape and element type PTX gives them, layouts and strides, the elementwise work
// programs do on fragments, a whole tiled GEMM, tf32 rounding, and the faults and race a
// misused fragment gives. Inputs are chosen so that every product and sum is exact: the
// expected values do not depend on the order of the tensor cores' sums.
#include "SimTestSupport.hpp"

#include <cmath>
#include <cstring>
#include <vector>

using namespace kwtest;

namespace {

// Element (r, c) of a matrix at p with leading dimension ld, row- or column-major.
template <class T> T& at(std::vector<T>& p, bool colMajor, int ld, int r, int c)
{
    return p[std::size_t(colMajor ? c * ld + r : r * ld + c)];
}

// An m x n x k product D = A B + C with A, B, C in memory as the kernel reads them.
std::vector<double> product(int m, int n, int k, const std::vector<double>& a, bool aCol, int lda,
                            const std::vector<double>& b, bool bCol, int ldb, const std::vector<double>& c, bool cCol,
                            int ldc)
{
    std::vector<double> d(std::size_t(m * n));
    auto A = a, B = b, C = c;
    for (int r = 0; r < m; ++r)
        for (int col = 0; col < n; ++col) {
            double s = at(C, cCol, ldc, r, col);
            for (int i = 0; i < k; ++i)
                s += at(A, aCol, lda, r, i) * at(B, bCol, ldb, i, col);
            d[std::size_t(r * n + col)] = s;
        }
    return d;
}

const char* kF16Source = R"(
#include <mma.h>
using namespace nvcuda;
// One warp: C (f32, row-major in a 24-wide buffer) += A (row-major) * B (col-major); stored col-major.
__global__ void f16_f32(const half* a, const half* b, const float* c, float* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c, 24, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_col_major);
}
// m32n8k16 with an f16 accumulator: A col-major, B row-major, C col-major.
__global__ void f16_f16_32x8(const half* a, const half* b, const half* c, half* d)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
    wmma::load_matrix_sync(acc, c, 32, wmma::mem_col_major);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}
// m8n32k16 in shared memory, with the GEMM epilogue done on the fragments' elements.
__global__ void f16_8x32_epilogue(const half* a, const half* b, const float* c, float* d, float alpha, float beta)
{
    __shared__ __align__(32) half sa[8 * 16];
    __shared__ __align__(32) half sb[16 * 32];
    for (int i = threadIdx.x; i < 8 * 16; i += 32) sa[i] = a[i];
    for (int i = threadIdx.x; i < 16 * 32; i += 32) sb[i] = b[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc, fc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 32);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::load_matrix_sync(fc, c, 32, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; ++i)
        fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
    wmma::store_matrix_sync(d, fc, 32, wmma::mem_row_major);
}
)";

} // namespace

TEST(SimMatrix, HalfProductIntoFloatWithStridesAndLayouts)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kF16Source, "f16_f32", "sm_75");
    ASSERT_TRUE(img);
    std::vector<double> a(256), b(256), c(16 * 24);
    std::vector<std::uint16_t> ah(256), bh(256);
    std::vector<float> cf(c.size());
    for (int i = 0; i < 256; ++i) {
        a[std::size_t(i)] = 0.5 * ((i * 7) % 13 - 6);
        b[std::size_t(i)] = 0.25 * ((i * 5) % 11 - 5);
        ah[std::size_t(i)] = halfBits(float(a[std::size_t(i)]));
        bh[std::size_t(i)] = halfBits(float(b[std::size_t(i)]));
    }
    for (std::size_t i = 0; i < c.size(); ++i)
        cf[i] = float(c[i] = double(int(i % 9) - 4));
    std::vector<kw::BufferArg> bufs{buffer("a", ah), buffer("b", bh), buffer("c", cf),
                                    buffer("d", std::vector<float>(256, -1.0f))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto want = product(16, 16, 16, a, false, 16, b, true, 16, c, false, 24);
    const auto d = values<float>(bufs[3]);
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col)
            ASSERT_EQ(d[std::size_t(col * 16 + r)], float(want[std::size_t(r * 16 + col)])) << r << "," << col;
}

TEST(SimMatrix, HalfAccumulatorInTheTallShape)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kF16Source, "f16_f16_32x8", "sm_75");
    ASSERT_TRUE(img);
    std::vector<double> a(32 * 16), b(16 * 8), c(32 * 8);
    std::vector<std::uint16_t> ah(a.size()), bh(b.size()), ch(c.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        ah[i] = halfBits(float(a[i] = double(int(i % 5) - 2)));
    for (std::size_t i = 0; i < b.size(); ++i)
        bh[i] = halfBits(float(b[i] = double(int(i % 3) - 1)));
    for (std::size_t i = 0; i < c.size(); ++i)
        ch[i] = halfBits(float(c[i] = 0.5 * double(int(i % 7))));
    std::vector<kw::BufferArg> bufs{buffer("a", ah), buffer("b", bh), buffer("c", ch),
                                    buffer("d", std::vector<std::uint16_t>(c.size(), 0xffff))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto want = product(32, 8, 16, a, true, 32, b, false, 8, c, true, 32);
    const auto d = values<std::uint16_t>(bufs[3]);
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(d[i], halfBits(float(want[i]))) << i;
}

TEST(SimMatrix, TheEpilogueOnFragmentElementsInTheWideShapeFromSharedMemory)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kF16Source, "f16_8x32_epilogue", "sm_75");
    ASSERT_TRUE(img);
    std::vector<double> a(8 * 16), b(16 * 32), c(8 * 32), zero(8 * 32, 0.0);
    std::vector<std::uint16_t> ah(a.size()), bh(b.size());
    std::vector<float> cf(c.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        ah[i] = halfBits(float(a[i] = double(int(i % 9) - 4)));
    for (std::size_t i = 0; i < b.size(); ++i)
        bh[i] = halfBits(float(b[i] = double(int(i % 4) - 2)));
    for (std::size_t i = 0; i < c.size(); ++i)
        cf[i] = float(c[i] = double(int(i % 11)));
    const float alpha = 2.0f, beta = -0.5f;
    std::vector<kw::BufferArg> bufs{buffer("a", ah), buffer("b", bh), buffer("c", cf),
                                    buffer("d", std::vector<float>(c.size(), 0))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3), scalar(alpha), scalar(beta)},
                          config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto ab = product(8, 32, 16, a, false, 16, b, false, 32, zero, false, 32);
    const auto d = values<float>(bufs[3]);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(d[i], float(alpha * ab[i] + beta * c[i])) << i;
}

TEST(SimMatrix, Bf16Tf32AndDoubleProducts)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 1.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
__global__ void tf32(const float* a, const float* b, float* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
__global__ void f64(const double* a, const double* b, const double* c, double* d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_col_major);
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}
)";
    kw::SimBackend sim;
    {
        auto img = compileFor(src, "bf16", "sm_80");
        ASSERT_TRUE(img);
        std::vector<double> a(256), b(256), one(256, 1.0);
        std::vector<std::uint16_t> ab(256), bb(256);
        for (std::size_t i = 0; i < 256; ++i) {
            ab[i] = bf16Bits(float(a[i] = 0.125 * double(int(i % 17) - 8)));
            bb[i] = bf16Bits(float(b[i] = double(int(i % 6) - 3)));
        }
        std::vector<kw::BufferArg> bufs{buffer("a", ab), buffer("b", bb), buffer("d", std::vector<float>(256))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2)}, config({1}, {32}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        const auto want = product(16, 16, 16, a, true, 16, b, false, 16, one, false, 16);
        const auto d = values<float>(bufs[2]);
        for (std::size_t i = 0; i < 256; ++i)
            ASSERT_EQ(d[i], float(want[i])) << "bf16 " << i;
    }
    {
        auto img = compileFor(src, "tf32", "sm_80");
        ASSERT_TRUE(img);
        // Values with more than tf32's 10 mantissa bits: the product sees them rounded to
        // nearest, ties away from zero (1 + 2^-11 + 2^-12 becomes 1 + 2^-10).
        std::vector<double> a(128), b(128), zero(256, 0.0), ar(128), br(128);
        std::vector<float> af(128), bf(128);
        for (std::size_t i = 0; i < 128; ++i) {
            af[i] = float(a[i] = double(int(i % 5) - 2) * (1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -12)));
            ar[i] = double(int(i % 5) - 2) * (1.0 + std::ldexp(1.0, -10));
            bf[i] = float(b[i] = double(int(i % 3) + 1));
            br[i] = b[i];
        }
        std::vector<kw::BufferArg> bufs{buffer("a", af), buffer("b", bf), buffer("d", std::vector<float>(256))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2)}, config({1}, {32}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        const auto want = product(16, 16, 8, ar, false, 8, br, true, 8, zero, false, 16);
        const auto d = values<float>(bufs[2]);
        for (std::size_t i = 0; i < 256; ++i)
            ASSERT_EQ(d[i], float(want[i])) << "tf32 " << i;
    }
    {
        auto img = compileFor(src, "f64", "sm_80");
        ASSERT_TRUE(img);
        std::vector<double> a(32), b(32), c(64);
        for (std::size_t i = 0; i < 32; ++i) {
            a[i] = 0.1 * double(i) - 1.3; // not exact in binary: each fma rounds
            b[i] = 1.0 / double(i + 3);
        }
        for (std::size_t i = 0; i < 64; ++i)
            c[i] = std::sqrt(double(i));
        std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("c", c),
                                        buffer("d", std::vector<double>(64))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        const auto d = values<double>(bufs[3]);
        for (int r = 0; r < 8; ++r)
            for (int col = 0; col < 8; ++col) {
                double s = c[std::size_t(col * 8 + r)];
                for (int k = 0; k < 4; ++k)
                    s = std::fma(a[std::size_t(r * 4 + k)], b[std::size_t(col * 4 + k)], s);
                ASSERT_EQ(d[std::size_t(r * 8 + col)], s) << "f64 " << r << "," << col;
            }
    }
}

TEST(SimMatrix, EightBitIntegersWrapOrSaturate)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
#include <mma.h>
using namespace nvcuda;
template <class T, bool Sat> __global__ void ints(const T* a, const T* b, const int* c, int* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc, Sat);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
template __global__ void ints<signed char, false>(const signed char*, const signed char*, const int*, int*);
template __global__ void ints<unsigned char, true>(const unsigned char*, const unsigned char*, const int*, int*);
template __global__ void ints<unsigned char, false>(const unsigned char*, const unsigned char*, const int*, int*);
)";
    kw::SimBackend sim;
    std::vector<std::int32_t> c(256);
    for (std::size_t i = 0; i < 256; ++i)
        c[i] = i % 2 ? 2147483000 : -1000 * std::int32_t(i);
    auto run = [&](const std::string& kernel, const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
        auto img = compileFor(src, kernel, "sm_75");
        EXPECT_TRUE(img);
        std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("c", c),
                                        buffer("d", std::vector<std::int32_t>(256))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
        EXPECT_TRUE(rep.ok) << faultMessage(rep.fault);
        return values<std::int32_t>(bufs[3]);
    };
    std::vector<std::uint8_t> a(256), b(256);
    for (std::size_t i = 0; i < 256; ++i) {
        a[i] = std::uint8_t(200 + i % 56);
        b[i] = std::uint8_t(i * 37);
    }
    auto sum = [&](bool sgn, int r, int col) {
        std::int64_t s = c[std::size_t(r * 16 + col)];
        for (int k = 0; k < 16; ++k) {
            const std::uint8_t x = a[std::size_t(r * 16 + k)], y = b[std::size_t(col * 16 + k)];
            s += sgn ? std::int64_t(std::int8_t(x)) * std::int8_t(y) : std::int64_t(x) * y;
        }
        return s;
    };
    const auto s8 = run("ints<signed char, false>", a, b);
    const auto u8wrap = run("ints<unsigned char, false>", a, b);
    const auto u8sat = run("ints<unsigned char, true>", a, b);
    int clamped = 0;
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
            const std::size_t i = std::size_t(r * 16 + col);
            ASSERT_EQ(s8[i], std::int32_t(std::uint32_t(sum(true, r, col)))) << i;
            ASSERT_EQ(u8wrap[i], std::int32_t(std::uint32_t(sum(false, r, col)))) << i;
            const std::int64_t u = sum(false, r, col);
            ASSERT_EQ(u8sat[i], u > 2147483647 ? 2147483647 : std::int32_t(u)) << i;
            clamped += u > 2147483647;
        }
    EXPECT_GT(clamped, 50); // the inputs do overflow
}

TEST(SimMatrix, ATiledGemmOfManyWarpsThroughSharedMemory)
{
    KW_REQUIRE_NVRTC();
    // 4 warps per block, each a 16 x 16 tile of C; K stepped through shared memory.
    const std::string src = R"(
#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* A, const half* B, float* C, int M, int N, int K)
{
    __shared__ __align__(32) half sa[2][16 * 16];
    __shared__ __align__(32) half sb[2][16 * 16];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int tileRow = blockIdx.y * 2 + warp / 2, tileCol = blockIdx.x * 2 + warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        __syncthreads();
        if (warp % 2 == 0)
            for (int i = lane; i < 256; i += 32)
                sa[warp / 2][i] = A[(tileRow * 16 + i / 16) * K + k0 + i % 16];
        if (warp / 2 == 0)
            for (int i = lane; i < 256; i += 32)
                sb[warp % 2][i] = B[(k0 + i / 16) * N + tileCol * 16 + i % 16];
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, sa[warp / 2], 16);
        wmma::load_matrix_sync(fb, sb[warp % 2], 16);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(C + tileRow * 16 * N + tileCol * 16, acc, N, wmma::mem_row_major);
}
)";
    auto img = compileFor(src, "gemm", "sm_75");
    ASSERT_TRUE(img);
    const int M = 64, N = 96, K = 48;
    std::vector<std::uint16_t> a(std::size_t(M * K)), b(std::size_t(K * N));
    for (int y = 0; y < M; ++y)
        for (int x = 0; x < K; ++x)
            a[std::size_t(y * K + x)] = halfBits(float(y - x));
    for (int y = 0; y < K; ++y)
        for (int x = 0; x < N; ++x)
            b[std::size_t(y * N + x)] = halfBits(float(y + x));
    std::vector<kw::BufferArg> bufs{buffer("A", a), buffer("B", b), buffer("C", std::vector<float>(M * N, -1.0f))};
    kw::SimBackend sim;
    kw::LaunchConfig cfg = config({N / 32, M / 32}, {128});
    cfg.check = kw::CheckTool::Racecheck;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar(M), scalar(N), scalar(K)}, cfg);
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
    const auto c = values<float>(bufs[2]);
    for (int y = 0; y < M; ++y)
        for (int x = 0; x < N; ++x) {
            double s = 0;
            for (int k = 0; k < K; ++k)
                s += double(y - k) * double(k + x);
            ASSERT_EQ(c[std::size_t(y * N + x)], float(s)) << y << "," << x;
        }
}

TEST(SimMatrix, RacecheckSeesEveryElementOfAMatrixStore)
{
    KW_REQUIRE_NVRTC();
    // Two warps store their tiles into one shared tile without a barrier between them, and
    // a third reads it back: the race is on every element, wherever the store puts it.
    const std::string src = R"(
#include <mma.h>
using namespace nvcuda;
__global__ void clash(float* out)
{
    __shared__ __align__(32) float tile[16 * 16];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, float(threadIdx.x / 32));
    if (threadIdx.x < 64)
        wmma::store_matrix_sync(tile, acc, 16, wmma::mem_row_major);
    __syncthreads();
    out[threadIdx.x] = tile[255 - threadIdx.x % 256];
}
)";
    auto img = compileFor(src, "clash", "sm_75");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<float>(64))};
    kw::SimBackend sim;
    kw::LaunchConfig cfg = config({1}, {64});
    cfg.check = kw::CheckTool::Racecheck;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, cfg);
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_FALSE(rep.findings.empty());
    std::uint64_t races = 0;
    for (const auto& f : rep.findings) {
        EXPECT_EQ(f.kind, "shared-memory race: write after write") << f.message;
        races += f.count;
    }
    EXPECT_EQ(races, 256u) << "one race per element of the tile";
}

TEST(SimMatrix, MisusedFragmentsFaultAtTheirLine)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
#include <mma.h>
using namespace nvcuda;
__global__ void misuse(const half* a, float* d, int mode)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    if (mode == 0 && threadIdx.x < 16) return;
    const half* p = mode == 1 ? a + 8 : mode == 2 ? a + threadIdx.x / 16 * 16 : a;
    wmma::load_matrix_sync(fa, p, mode == 3 ? 12 : 16); // LOAD
    wmma::store_matrix_sync(d + (mode == 4 ? 256 : 0), acc, 16, wmma::mem_row_major); // STORE
}
)";
    auto img = compileFor(src, "misuse", "sm_75");
    ASSERT_TRUE(img);
    const int loadLine = lineOf(src, "// LOAD"), storeLine = lineOf(src, "// STORE");
    kw::SimBackend sim;
    struct Case {
        int mode;
        kw::Dim3 block;
        kw::FaultKind kind;
        const char* says;
        int line;
    };
    const Case cases[] = {
        {0, {32}, kw::FaultKind::Other, "needs all 32 lanes of the warp together; only 16", loadLine},
        {5, {48}, kw::FaultKind::Other, "needs a whole warp of 32 threads; this warp has 16", loadLine},
        {1, {32}, kw::FaultKind::MisalignedAddress, "is not aligned to 32 bytes", loadLine},
        {2, {32}, kw::FaultKind::Other, "the warp's lanes gave different addresses", loadLine},
        {3, {32}, kw::FaultKind::Other, "a stride of 12 elements (24 bytes) is not a multiple of 16 bytes", loadLine},
        {4, {32}, kw::FaultKind::OutOfBounds, "", storeLine},
    };
    for (const Case& c : cases) {
        std::vector<kw::BufferArg> bufs{buffer("a", std::vector<std::uint16_t>(512)),
                                        buffer("d", std::vector<float>(256))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar(c.mode)}, config({1}, c.block));
        ASSERT_FALSE(rep.ok) << "mode " << c.mode;
        ASSERT_TRUE(rep.fault) << "mode " << c.mode;
        EXPECT_EQ(rep.fault->kind, c.kind) << "mode " << c.mode << ": " << rep.fault->message;
        EXPECT_TRUE(contains(rep.fault->message, c.says)) << "mode " << c.mode << ": " << rep.fault->message;
        EXPECT_EQ(rep.fault->line, c.line) << "mode " << c.mode << ": " << rep.fault->message;
    }
}

TEST(SimMatrix, FloatToTf32RoundsToNearestTiesAwayFromZero)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
#include <mma.h>
__global__ void to_tf32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = nvcuda::wmma::__float_to_tf32(in[i]);
}
)";
    auto img = compileFor(src, "to_tf32", "sm_80");
    ASSERT_TRUE(img);
    // Around ties, both signs, the largest finite values, infinities, zeros and subnormals.
    std::vector<std::uint32_t> bits;
    for (std::uint32_t base : {0x3f800000u, 0x3f801000u, 0x3f803000u, 0x00000001u, 0x00001000u, 0x7f7fe000u,
                               0x7f7ff000u, 0x7f7fffffu, 0x7f800000u, 0x00000000u, 0x4049ffffu})
        for (std::uint32_t delta : {0u, 1u, 0xfffu, 0x1000u, 0x1001u})
            for (std::uint32_t sign : {0u, 0x80000000u})
                bits.push_back(sign | std::min(base + delta, 0x7f800000u));
    const int n = int(bits.size());
    std::vector<kw::BufferArg> bufs{buffer("in", bits), buffer("out", std::vector<std::uint32_t>(bits.size()))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar(n)}, config({std::uint32_t(n + 63) / 64}, {64}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto out = values<std::uint32_t>(bufs[1]);
    for (std::size_t i = 0; i < bits.size(); ++i) {
        // The reference works on values: a multiple of the tf32 spacing at the input's binade.
        float x;
        std::memcpy(&x, &bits[i], 4);
        float want = x;
        if (std::isfinite(x) && x != 0) {
            int e;
            std::frexp(x, &e);
            const double ulp = std::ldexp(1.0, std::max(e, -125) - 11); // 10 stored bits; subnormals keep min spacing
            const double q = double(x) / ulp;
            want = float(std::copysign(std::floor(std::fabs(q) + 0.5), q) * ulp); // overflow gives infinity
        }
        std::uint32_t wantBits;
        std::memcpy(&wantBits, &want, 4);
        ASSERT_EQ(out[i], wantBits) << std::hex << "in 0x" << bits[i];
    }
}

TEST(SimMatrix, AnEightBitMultiplicandNeedsOnlyItsFragmentsAlignment)
{
    KW_REQUIRE_NVRTC();
    // cuda-samples' immaTensorCoreGemm steps a u8 matrix by 16 bytes along k: PTX asks the
    // address to be a multiple of the fragment's 8 bytes, not of 32.
    const std::string src = R"(
#include <mma.h>
using namespace nvcuda;
__global__ void shifted(const unsigned char* a, const unsigned char* b, int* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, a + 16, 32); // the right half of a 16 x 32 matrix
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
)";
    auto img = compileFor(src, "shifted", "sm_75");
    ASSERT_TRUE(img);
    std::vector<std::uint8_t> a(16 * 32), b(256);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = std::uint8_t(i % 13);
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = std::uint8_t(i % 7);
    std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("d", std::vector<std::int32_t>(256))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto d = values<std::int32_t>(bufs[2]);
    for (int r = 0; r < 16; ++r)
        for (int col = 0; col < 16; ++col) {
            std::int32_t s = 0;
            for (int k = 0; k < 16; ++k)
                s += a[std::size_t(r * 32 + 16 + k)] * b[std::size_t(col * 16 + k)];
            ASSERT_EQ(d[std::size_t(r * 16 + col)], s) << r << "," << col;
        }
}
