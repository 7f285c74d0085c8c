// Asynchronous copies to shared memory (cp.async, __pipeline_memcpy_async) on the
// simulator: the bytes land when their group is waited for, zero fill, double buffering,
// both wait forms, the ignore-src predicate, racecheck on a read before the wait, and
// faults at the copy's line.
#include "PtxHarness.hpp"
#include "SimTestSupport.hpp"

#include <vector>

using namespace kwtest;

namespace {

const char* kSource = R"(
#include <cuda_pipeline.h>
// Each thread copies one float4 of its block's tile; `keep` of the 16 bytes come from `in`,
// the rest are zeros. The tile is read reversed after the wait and a barrier.
__global__ void staged(const float4* in, float4* out, int keep)
{
    __shared__ float4 tile[64];
    __pipeline_memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], 16, 16 - keep);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}
// Two groups in flight: waiting for all but the newest lands only the first. `before`
// is what the second destination held before its group landed.
__global__ void two_groups(const int* in, int* first, int* before, int* after)
{
    __shared__ int a[32], b[32];
    b[threadIdx.x] = -1;
    __pipeline_memcpy_async(&a[threadIdx.x], &in[threadIdx.x], 4);
    __pipeline_commit();
    __pipeline_memcpy_async(&b[threadIdx.x], &in[32 + threadIdx.x], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    first[threadIdx.x] = a[threadIdx.x];
    before[threadIdx.x] = b[threadIdx.x]; // COPY-PENDING
    asm volatile("cp.async.wait_all;");
    after[threadIdx.x] = b[threadIdx.x];
}
// The predicate form: a thread whose flag is set copies nothing and gets zeros.
__global__ void ignore_src(const int* in, int* out)
{
    __shared__ int s[32];
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    int skip = threadIdx.x % 3 == 0;
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n"
                 :: "r"(dst), "l"(&in[threadIdx.x]), "r"(skip));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;");
    out[threadIdx.x] = s[threadIdx.x];
}
// A neighbour's element read after the barrier but before the wait: a race.
__global__ void early(const int* in, int* out, int waitFirst)
{
    __shared__ int s[64];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4); // THE-COPY
    __pipeline_commit();
    if (waitFirst)
        __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x ^ 32];
    __pipeline_wait_prior(0);
}
// Misuse: a 16-byte copy from an address 4 bytes past alignment, or past the end.
__global__ void misuse(const float* in, int mode)
{
    __shared__ float4 s[32];
    const float* from = mode == 0 ? in + 1 : in + 4 * threadIdx.x + 4 * 32;
    __pipeline_memcpy_async(&s[threadIdx.x], from, 16); // MISUSE
    __pipeline_commit();
    __pipeline_wait_prior(0);
}
)";

} // namespace

TEST(SimAsyncCopy, CopiesLandAtTheWaitWithZeroFill)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "staged", "sm_80");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int keep : {16, 8, 0}) {
        std::vector<float> in(2 * 64 * 4);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = float(i) + 0.5f;
        std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<float>(in.size(), -1.0f))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar(keep)}, racechecked({2}, {64}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
        const auto out = values<float>(bufs[1]);
        for (int b = 0; b < 2; ++b)
            for (int t = 0; t < 64; ++t)
                for (int k = 0; k < 4; ++k) {
                    const std::size_t from = std::size_t((b * 64 + 63 - t) * 4 + k);
                    const float want = k * 4 < keep ? in[from] : 0.0f;
                    ASSERT_EQ(out[std::size_t((b * 64 + t) * 4 + k)], want) << "keep " << keep << " t " << t;
                }
    }
}

TEST(SimAsyncCopy, WaitingForAllButTheNewestGroupLandsTheOlderOnly)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "two_groups", "sm_80");
    ASSERT_TRUE(img);
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i)
        in[std::size_t(i)] = 100 + i;
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("first", std::vector<int>(32)),
                                    buffer("before", std::vector<int>(32)), buffer("after", std::vector<int>(32))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto first = values<int>(bufs[1]), before = values<int>(bufs[2]), after = values<int>(bufs[3]);
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(first[std::size_t(t)], 100 + t);
        EXPECT_EQ(before[std::size_t(t)], -1) << "the newest group has not landed";
        EXPECT_EQ(after[std::size_t(t)], 132 + t) << "wait_all lands it";
    }
}

TEST(SimAsyncCopy, TheIgnoreSrcPredicateCopiesZeros)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "ignore_src", "sm_80");
    ASSERT_TRUE(img);
    std::vector<int> in(32);
    for (int i = 0; i < 32; ++i)
        in[std::size_t(i)] = 7 + i;
    std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("out", std::vector<int>(32, -1))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, config({1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    const auto out = values<int>(bufs[1]);
    for (int t = 0; t < 32; ++t)
        EXPECT_EQ(out[std::size_t(t)], t % 3 == 0 ? 0 : 7 + t) << t;
}

TEST(SimAsyncCopy, RacecheckFindsAReadOfAnotherThreadsCopyBeforeItsWait)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "early", "sm_80");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int waitFirst : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("in", std::vector<int>(64, 5)), buffer("out", std::vector<int>(64))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar(waitFirst)}, racechecked({1}, {64}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        if (waitFirst) {
            EXPECT_TRUE(rep.findings.empty()) << rep.findings.front().message;
            continue;
        }
        ASSERT_FALSE(rep.findings.empty()) << "reads of copies not waited for";
        bool atTheCopy = false;
        for (const auto& f : rep.findings) {
            EXPECT_TRUE(f.kind.starts_with("shared-memory race")) << f.kind;
            atTheCopy |= f.line == lineOf(kSource, "// THE-COPY");
        }
        EXPECT_TRUE(atTheCopy) << "the copy's write is reported at the cp.async";
    }
}

TEST(SimAsyncCopy, AMisalignedOrOutOfBoundsCopyFaultsWhereItIsIssued)
{
    KW_REQUIRE_NVRTC();
    auto img = compileFor(kSource, "misuse", "sm_80");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (int mode : {0, 1}) {
        std::vector<kw::BufferArg> bufs{buffer("in", std::vector<float>(4 * 32 + 4))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar(mode)}, config({1}, {32}));
        ASSERT_FALSE(rep.ok);
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->kind, mode == 0 ? kw::FaultKind::MisalignedAddress : kw::FaultKind::OutOfBounds)
            << rep.fault->message;
        EXPECT_EQ(rep.fault->line, lineOf(kSource, "// MISUSE")) << rep.fault->message;
    }
}

// Modifiers that hold "::" stay whole, as NVRTC and hand-written kernels spell them: the
// block's shared memory (.shared::cta, and .shared::cluster, a block being a cluster of
// one), cache sizes and hints (.L2::128B, .L1::no_allocate) and a cache policy operand
// (.L2::cache_hint), which is only a hint: the source size before it still counts.
TEST(SimAsyncCopy, ModifiersWithDoubleColonsAreReadWhole)
{
    const std::vector<std::uint64_t> in = {0x100000011ull, 0x200000022ull, 0x300000033ull, 0x400000044ull};
    auto r = runPtx(R"(
    mov.u64 %rd26, 0;
    mov.u32 %r1, buf;
    shl.b32 %r2, %r31, 3;
    add.u32 %r3, %r1, %r2;
    cp.async.ca.shared::cta.global.L2::128B.L2::cache_hint [%r3], [%rd27], 8, 4, %rd26;
    cp.async.commit_group;
    cp.async.wait_all;
    ld.shared::cluster.u64 %rd1, [%r3];
    ld.global.nc.L1::no_allocate.L2::cache_hint.u64 %rd2, [%rd27], %rd26;
    add.u64 %rd3, %rd1, %rd2;
    st.global.L1::no_allocate.u64 [%rd28], %rd3;
)",
                    in, 4, ".shared .align 16 .b8 buf[64];\n");
    ASSERT_TRUE(r.report.ok) << faultMessage(r.report.fault);
    for (std::size_t i = 0; i < in.size(); ++i)
        EXPECT_EQ(r.out[i], (in[i] & 0xffffffffu) + in[i]) << i << ": 4 of the 8 bytes copied, the rest zeros";
}
