// Arrive/wait barriers (PTX mbarrier; cuda::barrier, cuda::memcpy_async with a barrier)
// on the simulator: phases, a waiting warp that yields to the one it waits for, copies
// and bulk copies that complete on a barrier, racecheck ordering through arrivals,
// completed copies and completed waits (and finding the race a missing wait leaves),
// faults for misuse at the line, and kernels of clusters refused.
#include "SimTestSupport.hpp"
#include "util/Error.hpp"

#include <vector>

using namespace kwtest;

namespace {

const char* kSource = R"(
#include <cuda/barrier>

// cuda::memcpy_async into shared memory, completed by a block-scope barrier.
__global__ void copy_then_reverse(const float* in, float* out)
{
    __shared__ float s[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = s[255 - threadIdx.x];
}

// Four phases of one barrier: each thread writes its slot, all wait, each adds its
// neighbour's, all wait again before the slot is written anew (unless `skip`).
__global__ void phases(float* out, int skip)
{
    __shared__ float s[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    float v = threadIdx.x;
    for (int it = 0; it < 4; ++it) {
        s[threadIdx.x] = v; // WRITE
        bar.arrive_and_wait();
        v += s[(threadIdx.x + 1) % blockDim.x]; // READ
        if (!skip)
            bar.arrive_and_wait();
    }
    out[threadIdx.x] = v;
}

// Warp 1 fills data and arrives; warp 0, which runs first, spins on try_wait.parity until
// the phase completes (mode 0), or reads without waiting (mode 1).
__global__ void handoff(int* out, int mode)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ int data[32];
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&full);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(32) : "memory");
    __syncthreads();
    if (threadIdx.x >= 32) {
        data[threadIdx.x - 32] = 100 + threadIdx.x;
        unsigned long long state;
        asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
    } else {
        unsigned done = mode;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done)
                         : "r"(bar), "r"(0)
                         : "memory");
        out[threadIdx.x] = data[(threadIdx.x + 1) % 32]; // CONSUME
    }
}

// Polls until the phase of `parity` of the barrier at shared address `bar` completes.
__device__ void waitPhase(unsigned bar, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
}

// cp.async whose completion arrives on the barrier (.noinc: it counts as the thread's arrival).
__global__ void copies_arrive(const int* in, int* out)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(16) int s[32];
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&full);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(32) : "memory");
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((unsigned)__cvta_generic_to_shared(&s[threadIdx.x])),
                 "l"(&in[threadIdx.x])
                 : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(bar) : "memory");
    waitPhase(bar, 0);
    out[threadIdx.x] = s[31 - threadIdx.x];
}

// A bulk copy (the tensor memory accelerator's one-dimensional form) into shared memory:
// thread 0 arrives expecting its bytes, then issues it; everyone waits for the phase
// (mode 0) or reads at once (mode 1). Then thread 0 copies the tile back out, reversed.
__global__ void bulk(const int* in, int* out, int* back, int mode)
{
    __shared__ __align__(8) unsigned long long full;
    __shared__ __align__(16) int s[256], r[256];
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&full);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(1) : "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(1024) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         (unsigned)__cvta_generic_to_shared(s)),
                     "l"(in), "r"(1024), "r"(bar)
                     : "memory");
    }
    if (mode == 0)
        waitPhase(bar, 0);
    out[threadIdx.x] = s[255 - threadIdx.x]; // BULK READ
    r[threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(back),
                     "r"((unsigned)__cvta_generic_to_shared(r)), "r"(1024)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// cuda::memcpy_async of a size known to be 16-byte aligned: on sm_90 a bulk copy.
__global__ void aligned_copy(const float* in, float* out)
{
    __shared__ __align__(16) float s[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0)
        cuda::memcpy_async(s, in, cuda::aligned_size_t<16>(sizeof(s)), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = s[255 - threadIdx.x];
}

// Clusters of two blocks.
__global__ void __cluster_dims__(2, 1, 1) clustered(int* out)
{
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    out[blockIdx.x] = rank;
}

// Mode 0: an arrival of 5 on a barrier that expects 4; mode 1: an arrival on a barrier
// never initialised.
__global__ void misuse(int* out, int mode)
{
    __shared__ __align__(8) unsigned long long b;
    const unsigned bar = (unsigned)__cvta_generic_to_shared(&b);
    if (threadIdx.x == 0) {
        if (mode == 0)
            asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(4) : "memory");
        else
            b = 0;
    }
    __syncthreads();
    unsigned long long state = 0;
    if (threadIdx.x == 0)
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(state) : "r"(bar), "r"(5) : "memory"); // ARRIVE
    out[threadIdx.x] = int(state);
}
)";

// One block of 256 threads of `kernel` (in, out) brings `in` into shared memory through a
// barrier and writes it out reversed, with no race; its PTX holds `instruction`.
void expectReversedThroughSharedMemory(const std::string& kernel, const std::string& instruction = "mbarrier")
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, kernel, "sm_90");
    ASSERT_TRUE(img);
    ASSERT_TRUE(contains(img->ptx, instruction)) << kernel << " no longer compiles to " << instruction;
    std::vector<float> in(256);
    for (int i = 0; i < 256; ++i)
        in[std::size_t(i)] = float(i) * 0.5f;
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<float>(256, -1))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, racechecked({1}, {256}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
    const auto out = values<float>(bufs[1]);
    for (int i = 0; i < 256; ++i)
        ASSERT_EQ(out[std::size_t(i)], in[std::size_t(255 - i)]) << kernel << " " << i;
}

} // namespace

TEST(SimMbarrier, AMemcpyAsyncCompletesOnABlockBarrier) { expectReversedThroughSharedMemory("copy_then_reverse"); }

TEST(SimMbarrier, PhasesOrderTheBlockAndAMissingWaitIsARace)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "phases", "sm_90");
    ASSERT_TRUE(img);
    std::vector<double> want(128);
    for (int i = 0; i < 128; ++i)
        want[std::size_t(i)] = i;
    for (int it = 0; it < 4; ++it) {
        const auto before = want;
        for (int i = 0; i < 128; ++i)
            want[std::size_t(i)] += before[std::size_t((i + 1) % 128)];
    }
    kw::SimBackend sim;
    for (int skip : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<float>(128, -1))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar(skip)}, racechecked({1}, {128}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        if (skip == 0) {
            EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
            const auto out = values<float>(bufs[0]);
            for (int i = 0; i < 128; ++i)
                ASSERT_EQ(out[std::size_t(i)], float(want[std::size_t(i)])) << i;
            continue;
        }
        ASSERT_FALSE(rep.findings.empty()) << "the slot is written again while a neighbour may still read it";
        const auto& f = rep.findings.front();
        EXPECT_TRUE(contains(f.kind, "race")) << f.kind;
        EXPECT_TRUE(contains(f.message, "kernel.cu:" + std::to_string(lineOf(kSource, "// WRITE")))) << f.message;
        EXPECT_TRUE(contains(f.message, "kernel.cu:" + std::to_string(lineOf(kSource, "// READ")))) << f.message;
    }
}

TEST(SimMbarrier, AWaitingWarpYieldsToTheWarpItWaitsForAndACompletedWaitAcquires)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "handoff", "sm_90");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int mode : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32, -1))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar(mode)}, racechecked({1}, {64}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        if (mode == 0) {
            EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
            const auto out = values<int>(bufs[0]);
            for (int i = 0; i < 32; ++i)
                ASSERT_EQ(out[std::size_t(i)], 100 + 32 + (i + 1) % 32) << i;
        } else {
            ASSERT_FALSE(rep.findings.empty()) << "a read without the wait races with the producer's write";
            EXPECT_TRUE(
                contains(rep.findings.front().message, "kernel.cu:" + std::to_string(lineOf(kSource, "// CONSUME"))))
                << rep.findings.front().message;
        }
    }
}

TEST(SimMbarrier, CopiesCompleteOnTheBarrierTheyArriveOn)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "copies_arrive", "sm_90");
    ASSERT_TRUE(img);
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i)
        in[std::size_t(i)] = 7 * i + 1;
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<int>(32, -1))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, racechecked({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
    const auto out = values<int>(bufs[1]);
    for (int i = 0; i < 32; ++i)
        ASSERT_EQ(out[std::size_t(i)], in[std::size_t(31 - i)]) << i;
}

TEST(SimMbarrier, TooManyArrivalsOrAnUninitialisedBarrierFaultAtTheLine)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "misuse", "sm_90");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int mode : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar(mode)}, config({1}, {32}));
        ASSERT_FALSE(rep.ok);
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->line, lineOf(kSource, "// ARRIVE")) << rep.fault->message;
        EXPECT_TRUE(contains(rep.fault->message, mode == 0 ? "arrival of 5" : "holds no initialised barrier"))
            << rep.fault->message;
    }
}

TEST(SimMbarrier, ABulkCopyCompletesOnItsBarrierAndGoesBackOut)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "bulk", "sm_90");
    ASSERT_TRUE(img);
    std::vector<int> in(256);
    for (int i = 0; i < 256; ++i)
        in[std::size_t(i)] = 3 * i - 100;
    kw::SimBackend sim;
    for (int mode : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<int>(256, -1)),
                                        buffer("back", std::vector<int>(256, -1))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar(mode)}, racechecked({1}, {256}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        if (mode == 1) {
            // The copy's bytes are not ordered before a read that did not wait for the phase.
            ASSERT_FALSE(rep.findings.empty());
            EXPECT_TRUE(
                contains(rep.findings.front().message, "kernel.cu:" + std::to_string(lineOf(kSource, "// BULK READ"))))
                << rep.findings.front().message;
            continue;
        }
        // Thread 0 arrived before it issued the copy: only the copy's completion orders its bytes.
        EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
        const auto out = values<int>(bufs[1]), back = values<int>(bufs[2]);
        for (int i = 0; i < 256; ++i) {
            ASSERT_EQ(out[std::size_t(i)], in[std::size_t(255 - i)]) << i;
            ASSERT_EQ(back[std::size_t(i)], in[std::size_t(255 - i)]) << i;
        }
    }
}

TEST(SimMbarrier, AMemcpyAsyncOfAnAlignedSizeIsABulkCopyOnSm90)
{
    expectReversedThroughSharedMemory("aligned_copy", "cp.async.bulk");
}

// Every block runs as a cluster of one: a kernel that asks for larger clusters would
// compute other numbers than on a GPU, so it is refused before it runs.
TEST(SimMbarrier, AKernelOfClustersIsRefusedWithTheReason)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "clustered", "sm_90");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(4, -1))};
    kw::SimBackend sim;
    try {
        sim.launch(*img, bufs, {bufArg(0)}, config({4}, {32}));
        FAIL() << "a kernel of clusters of two ran";
    } catch (const kw::Error& e) {
        EXPECT_TRUE(contains(e.what(), "clusters of 2 x 1 x 1 blocks")) << e.what();
    }
    EXPECT_EQ(values<int>(bufs[0]), std::vector<int>(4, -1));
}
