// Whole kernels on the simulator, checked against values computed on the host.
#include "SimBenchKernels.hpp"
#include "SimTestSupport.hpp"
#include "run/PrintfLineParser.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

using namespace kwtest;

TEST(SimKernels, VectorAdd)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kAddVectorsSource, "add_vectors");
    ASSERT_TRUE(img);
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = 0.5f * i;
        b[i] = 3.0f - i;
    }
    std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("c", std::vector<float>(n, -1.0f))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({4}, {256}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto c = values<float>(bufs[2]);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST(SimKernels, ReductionWithBarriersAndDynamicShared)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void reduce_sum(const float* in, float* out, int n) {
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
})",
                       "reduce_sum");
    ASSERT_TRUE(img);
    const int n = 5000, block = 256, grid = (n + block - 1) / block;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i)
        in[i] = float(i % 7);
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<float>(grid, 0))};
    kw::SimBackend sim;
    sim.setRaceCheck(true);
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(n)},
                          config({std::uint32_t(grid)}, {block}, block * sizeof(float)));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    EXPECT_TRUE(rep.warnings.empty()) << rep.warnings.front();
    auto out = values<float>(bufs[1]);
    for (int b = 0; b < grid; ++b) {
        float expect = 0;
        for (int i = b * block; i < std::min(n, (b + 1) * block); ++i)
            expect += in[i];
        EXPECT_EQ(out[b], expect) << b;
    }
}

TEST(SimKernels, WarpShuffleReductionWithAtomics)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void warp_reduce(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
})",
                       "warp_reduce");
    ASSERT_TRUE(img);
    const int n = 10000;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), -300);
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<int>{0})};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(n)}, config({40}, {256}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    EXPECT_EQ(values<int>(bufs[1])[0], std::accumulate(in.begin(), in.end(), 0));
}

TEST(SimKernels, HistogramWithSharedAndGlobalAtomics)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void histogram(const unsigned char* d, unsigned* h, int n) {
    __shared__ unsigned sh[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) sh[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&sh[d[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&h[i], sh[i]);
})",
                       "histogram");
    ASSERT_TRUE(img);
    const int n = 100000;
    std::vector<unsigned char> data(n);
    std::mt19937 rng(7);
    for (auto& x : data)
        x = static_cast<unsigned char>(rng() % 256);
    std::vector<unsigned> expect(256, 0);
    for (auto x : data)
        ++expect[x];
    std::vector<kw::BufferArg> bufs{buffer("d", data), buffer("h", std::vector<unsigned>(256, 0))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(n)}, config({16}, {96}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    EXPECT_EQ(values<unsigned>(bufs[1]), expect);
}

TEST(SimKernels, PrintfTaggedLinesFromA3x4x5Block)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void hello(float scale) {
    printf("\x1e%u,%u,%u;%u,%u,%u\x1fHello from thread %d of %d, value %.2f %s\n",
           blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z,
           threadIdx.x + 3 * (threadIdx.y + 4 * threadIdx.z), blockDim.x * blockDim.y * blockDim.z,
           scale * threadIdx.x, "ok");
})",
                       "hello");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs;
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {scalar<float>(1.5f)}, config({1}, {3, 4, 5}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    std::multiset<std::string> got, expect;
    std::istringstream lines(rep.printfOutput);
    for (std::string line; std::getline(lines, line);)
        got.insert(line);
    for (unsigned z = 0; z < 5; ++z)
        for (unsigned y = 0; y < 4; ++y)
            for (unsigned x = 0; x < 3; ++x) {
                char buf[200];
                std::snprintf(buf, sizeof buf, "\x1e%u,%u,%u;%u,%u,%u\x1fHello from thread %u of 60, value %.2f ok", 0u,
                              0u, 0u, x, y, z, x + 3 * (y + 4 * z), 1.5 * x);
                expect.insert(buf);
            }
    EXPECT_EQ(got.size(), 60u);
    EXPECT_EQ(got, expect);
}

TEST(SimKernels, TemplateKernelByLoweredName)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
template <typename T, int N> __global__ void scale(T* a, T f) {
    int i = blockIdx.x * N + threadIdx.x;
    a[i] *= f;
})",
                       "scale<float,128>");
    ASSERT_TRUE(img);
    ASSERT_NE(img->loweredName, img->name);
    std::vector<float> a(256);
    std::iota(a.begin(), a.end(), 0.0f);
    std::vector<kw::BufferArg> bufs{buffer("a", a)};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), scalar<float>(2.5f)}, config({2}, {128}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto out = values<float>(bufs[0]);
    for (int i = 0; i < 256; ++i)
        EXPECT_EQ(out[i], 2.5f * i);
}

TEST(SimKernels, TiledMatmulMatchesHost)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kTiledMatmulSource, "matmul");
    ASSERT_TRUE(img);
    const int n = 40;
    std::vector<float> A(n * n), B(n * n);
    for (int i = 0; i < n * n; ++i) {
        A[i] = float(i % 5) - 2;
        B[i] = float(i % 3) * 0.5f;
    }
    std::vector<kw::BufferArg> bufs{buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(n * n))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({3, 3}, {16, 16}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto C = values<float>(bufs[2]);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            float s = 0;
            for (int k = 0; k < n; ++k)
                s += A[r * n + k] * B[k * n + c];
            ASSERT_FLOAT_EQ(C[r * n + c], s) << r << "," << c;
        }
}

TEST(SimKernels, MathFunctionsMatchHostWithinTolerance)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void rbf(const float* x, float* y, double* z, int n, float g) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[4 * i + 0] = expf(-g * x[i] * x[i]);
        y[4 * i + 1] = sinf(x[i]) + cosf(x[i]);
        y[4 * i + 2] = sqrtf(fabsf(x[i])) / (x[i] + 100.0f);
        y[4 * i + 3] = logf(fabsf(x[i]) + 1.0f) + powf(1.5f, x[i] / 50.0f) + tanhf(x[i] / 30.0f);
        z[i] = exp(x[i] / 30.0) + sin((double)x[i]) + log1p(fabs((double)x[i]));
    }
})",
                       "rbf");
    ASSERT_TRUE(img);
    const int n = 300;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = -75.0f + 0.5f * i + 0.001f * i;
    x[7] = 1e6f; // sinf's slow path (Payne-Hanek reduction with local memory)
    std::vector<kw::BufferArg> bufs{buffer("x", x), buffer("y", std::vector<float>(4 * n)),
                                    buffer("z", std::vector<double>(n))};
    kw::SimBackend sim;
    const float g = 0.01f;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n), scalar<float>(g)},
                          config({2}, {256}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto y = values<float>(bufs[1]);
    auto z = values<double>(bufs[2]);
    auto near = [](double got, double want) { return std::fabs(got - want) <= 1e-5 * std::max(1.0, std::fabs(want)); };
    for (int i = 0; i < n; ++i) {
        const double v = x[i];
        EXPECT_TRUE(near(y[4 * i], std::exp(-g * v * v))) << i;
        EXPECT_TRUE(near(y[4 * i + 1], std::sin(v) + std::cos(v))) << i << " " << y[4 * i + 1];
        if (i == 7)
            continue; // the other terms overflow to infinity there
        EXPECT_TRUE(near(y[4 * i + 2], std::sqrt(std::fabs(v)) / (v + 100.0))) << i;
        EXPECT_TRUE(near(y[4 * i + 3], std::log(std::fabs(v) + 1) + std::pow(1.5, v / 50) + std::tanh(v / 30))) << i;
        EXPECT_TRUE(near(z[i], std::exp(v / 30.0) + std::sin(v) + std::log1p(std::fabs(v)))) << i;
    }
}

TEST(SimKernels, MandelbrotDivergentLoops)
{
    KW_REQUIRE_NVRTC();
    // Without contraction into fma every float operation rounds on its own, so the
    // host's reference is exact: every pixel must match.
    std::string log;
    auto img = kwtest::compileCuda(kMandelbrotSource, "mandelbrot", log, false, {"--fmad=false"});
    ASSERT_TRUE(img) << log;
    const int w = 70, h = 50, maxit = 100;
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(w * h, -1))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), scalar<int>(w), scalar<int>(h), scalar<int>(maxit)},
                          config({5, 4}, {16, 16}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    const auto out = values<int>(bufs[0]);
    const auto expected = mandelbrotReference(w, h, maxit);
    ASSERT_EQ(out.size(), expected.size());
    int mismatches = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] != expected[i] && mismatches++ < 5)
            ADD_FAILURE() << "pixel (" << i % w << ", " << i / w << "): " << out[i] << ", expected " << expected[i];
    EXPECT_EQ(mismatches, 0);
    // The image has both escaping points and points of the set.
    EXPECT_GT(std::count(out.begin(), out.end(), maxit), 0);
    EXPECT_GT(std::count(out.begin(), out.end(), 1), 0);
}

TEST(SimKernels, DoublePrecisionLibdeviceCallsAreInlined)
{
    KW_REQUIRE_NVRTC();
    // pow, the slow path of sin and lgamma are separate device functions in NVRTC's PTX.
    auto img = compile(R"(
extern "C" __global__ void dmath(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[3 * i + 0] = pow(x[i], 1.7);
        y[3 * i + 1] = sin(x[i]);
        y[3 * i + 2] = lgamma(x[i]);
    }
})",
                       "dmath");
    ASSERT_TRUE(img);
    std::vector<double> x{0.5, 1.5, 2.0, 3.25, 10.0, 123.456, 1e10, 3e15, 7.0, 0.001};
    const int n = int(x.size());
    std::vector<kw::BufferArg> bufs{buffer("x", x), buffer("y", std::vector<double>(3 * n))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(n)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto y = values<double>(bufs[1]);
    auto near = [](double got, double want) { return std::fabs(got - want) <= 1e-12 * std::max(1.0, std::fabs(want)); };
    for (int i = 0; i < n; ++i) {
        EXPECT_TRUE(near(y[3 * i], std::pow(x[i], 1.7))) << x[i] << " " << y[3 * i];
        EXPECT_TRUE(near(y[3 * i + 1], std::sin(x[i]))) << x[i] << " " << y[3 * i + 1];
        EXPECT_TRUE(near(y[3 * i + 2], std::lgamma(x[i]))) << x[i] << " " << y[3 * i + 2];
    }
}

TEST(SimKernels, NoinlineDeviceFunctionWithStructReturn)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
struct Pair { int sum; float ratio; };
__device__ __noinline__ Pair combine(int a, int b) {
    if (b == 0) return Pair{a, 0.0f};
    return Pair{a + b, float(a) / float(b)};
}
extern "C" __global__ void k(const int* a, int* s, float* r) {
    int i = threadIdx.x;
    Pair p = combine(a[i], i);
    s[i] = p.sum;
    r[i] = p.ratio;
})",
                       "k");
    ASSERT_TRUE(img);
    std::vector<int> a(40);
    for (int i = 0; i < 40; ++i)
        a[i] = 3 * i + 1;
    std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("s", std::vector<int>(40)),
                                    buffer("r", std::vector<float>(40))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2)}, config({1}, {40}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    auto s = values<int>(bufs[1]);
    auto r = values<float>(bufs[2]);
    for (int i = 0; i < 40; ++i) {
        EXPECT_EQ(s[i], i == 0 ? a[i] : a[i] + i);
        EXPECT_EQ(r[i], i == 0 ? 0.0f : float(a[i]) / float(i));
    }
}

TEST(SimKernels, SyncthreadsCountAndOr)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
extern "C" __global__ void k(const int* a, int* o) {
    int c = __syncthreads_count(a[threadIdx.x] > 2);
    int x = __syncthreads_or(a[threadIdx.x] == 7);
    int y = __syncthreads_and(a[threadIdx.x] >= 0);
    o[threadIdx.x] = c + 100 * x + 1000 * y;
})",
                       "k");
    ASSERT_TRUE(img);
    std::vector<int> a(70);
    for (int i = 0; i < 70; ++i)
        a[i] = i % 5;
    std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("o", std::vector<int>(70))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {70}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    for (int v : values<int>(bufs[1]))
        EXPECT_EQ(v, 28 + 0 + 1000);
}

TEST(SimKernels, PrintfTaggedByTheCompilerParsesIntoLines)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
__global__ void hello() {
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    printf("Hello from thread %d of block %d\n", t, blockIdx.x);
})",
                       "hello", /*tagPrintf=*/true);
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs;
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {}, config({2}, {3, 4, 5}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    const kw::PrintfOutput out = kw::PrintfLineParser::parse(rep.printfOutput);
    ASSERT_EQ(out.lines.size(), 120u);
    EXPECT_TRUE(out.untagged.empty());
    std::set<std::string> seen;
    for (const auto& line : out.lines) {
        const unsigned t = line.thread.x + 3 * (line.thread.y + 4 * line.thread.z);
        EXPECT_EQ(line.text, "Hello from thread " + std::to_string(t) + " of block " + std::to_string(line.block.x));
        seen.insert(std::to_string(line.block.x) + ":" + std::to_string(t));
    }
    EXPECT_EQ(seen.size(), 120u);
}

TEST(SimKernels, PrintfConversionsMatchTheCLibrary)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(
__global__ void fmt(float f, double d, int i, long long ll, unsigned u) {
    printf("[%5.2f|%-8.3e|%g|%x|%X|%08d|%ld|%lld|%u|%c|%s|%%|%+d|%p]\n", f, d, d, u, u, i, (long)ll, ll, u,
           'k', "str", i, (void*)0);
})",
                       "fmt");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs;
    kw::SimBackend sim;
    const float f = 3.14159f;
    const double d = -12345.678;
    const int i = -42;
    const long long ll = -9000000000LL;
    const unsigned u = 0xBEEFu;
    auto rep = sim.launch(*img, bufs, {scalar(f), scalar(d), scalar(i), scalar(ll), scalar(u)}, config({1}, {1}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    char expect[300];
    std::snprintf(expect, sizeof expect, "[%5.2f|%-8.3e|%g|%x|%X|%08d|%ld|%lld|%u|%c|%s|%%|%+d|%p]\n", double(f), d, d,
                  u, u, i, long(ll), ll, u, 'k', "str", i, static_cast<void*>(nullptr));
    EXPECT_EQ(rep.printfOutput, expect);
}

namespace {
// `locked(lock, counter)` adds threadIdx.x to counter[0] inside a lock, in 2 blocks of
// 64 threads: the sum is right only if every thread got the lock exactly once.
void expectLockedSumOverTwoBlocks(const char* source)
{
    auto img = compile(source, "locked");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("lock", std::vector<int>{0}), buffer("counter", std::vector<int>{0})};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({2}, {64}, 0, 10));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    EXPECT_EQ(values<int>(bufs[1])[0], 2 * 63 * 64 / 2);
}
} // namespace

TEST(SimKernels, SpinLockAcrossLanesOfAWarpMakesProgress)
{
    KW_REQUIRE_NVRTC();
    // Lanes of one warp take turns on a lock: needs independent thread scheduling (Volta+).
    expectLockedSumOverTwoBlocks(R"(
extern "C" __global__ void locked(int* lock, int* counter) {
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            counter[0] += threadIdx.x;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
})");
}

TEST(SimKernels, SpinWaitLoopBeforeCriticalSectionMakesProgress)
{
    KW_REQUIRE_NVRTC();
    // The pattern that hangs before Volta: losers spin at a lower pc than the winner.
    expectLockedSumOverTwoBlocks(R"(
extern "C" __global__ void locked(int* lock, int* counter) {
    while (atomicCAS(lock, 0, 1) != 0) { }
    counter[0] += threadIdx.x;
    __threadfence();
    atomicExch(lock, 0);
})");
}

TEST(SimKernels, ShuffleAfterLongDivergentLoopsWaitsForAllLanes)
{
    KW_REQUIRE_NVRTC();
    // Lanes leave the loop thousands of instructions apart; the shuffle must still see
    // every lane's final value (it synchronises the lanes of its mask).
    auto img = compile(R"(
extern "C" __global__ void k(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int v = 0;
    for (int i = 0; i < lane * 3000; ++i) v += in[i % 16];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) out[threadIdx.x / 32] = v;
})",
                       "k");
    ASSERT_TRUE(img);
    std::vector<int> in(16);
    for (int i = 0; i < 16; ++i)
        in[i] = i + 1;
    long long expect = 0;
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < lane * 3000; ++i)
            expect += in[i % 16];
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<int>(2))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {64}));
    ASSERT_TRUE(rep.ok) << kwtest::faultMessage(rep.fault);
    EXPECT_EQ(values<int>(bufs[1]), (std::vector<int>{int(expect), int(expect)}));
}
