// Faults the simulator reports instead of a wrong result, a crash or a hang.
#include "PtxHarness.hpp"
#include "SimTestSupport.hpp"

#include <chrono>
#include <sstream>

using namespace kwtest;

namespace {

const char* kAssert = R"(
extern "C" __device__ void __assertfail(const char*, const char*, unsigned, const char*, unsigned long);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
)";

} // namespace

TEST(SimFaults, OutOfBoundsWriteNamesThreadBufferAndLine)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void add_vectors(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i % n] + b[i % n]; // FAULT HERE
})";
    auto img = compile(src, "add_vectors");
    ASSERT_TRUE(img);
    const int n = 1000;
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<float>(n, 1)), buffer("b", std::vector<float>(n, 2)),
                                    buffer("c", std::vector<float>(n, 0))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({4}, {256}));
    ASSERT_FALSE(rep.ok);
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_EQ(rep.fault->line, lineOf(src, "FAULT HERE"));
    EXPECT_TRUE(contains(rep.fault->file, "kernel.cu")) << rep.fault->file;
    ASSERT_TRUE(rep.fault->block && rep.fault->thread);
    const unsigned index = rep.fault->block->x * 256 + rep.fault->thread->x;
    EXPECT_GE(index, unsigned(n));
    EXPECT_TRUE(contains(rep.fault->message, "buffer 'c'")) << rep.fault->message;
    EXPECT_TRUE(contains(rep.fault->message, "past the end")) << rep.fault->message;
    EXPECT_TRUE(contains(rep.fault->message, "st.global")) << rep.fault->message;
    // Threads inside the buffer wrote before the fault stopped the launch, as on a GPU.
    EXPECT_EQ(values<float>(bufs[2])[0], 3.0f);
}

TEST(SimFaults, TrapIsReportedWithItsLine)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void k(int* a) {
    if (a[threadIdx.x] == 5) __trap(); // FAULT HERE
    a[threadIdx.x] += 1;
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<int> a(64, 0);
    a[37] = 5;
    std::vector<kw::BufferArg> bufs{buffer("a", a)};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {64}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::Trap);
    EXPECT_EQ(rep.fault->line, lineOf(src, "FAULT HERE"));
    EXPECT_EQ(rep.fault->thread->x, 37u);
}

TEST(SimFaults, AssertNamesExpressionAndThread)
{
    KW_REQUIRE_NVRTC();
    const std::string src = std::string(kAssert) + R"(
extern "C" __global__ void check(const int* a) {
    assert(a[threadIdx.x] >= 0); // FAULT HERE
})";
    auto img = compile(src, "check");
    ASSERT_TRUE(img);
    std::vector<int> a(32, 1);
    a[9] = -1;
    std::vector<kw::BufferArg> bufs{buffer("a", a)};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({2}, {32}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::Assert);
    EXPECT_EQ(rep.fault->thread->x, 9u);
    EXPECT_EQ(rep.fault->line, lineOf(src, "FAULT HERE"));
    EXPECT_TRUE(contains(rep.fault->message, "a[threadIdx.x] >= 0")) << rep.fault->message;
}

TEST(SimFaults, EndlessLoopStopsAtTheTimeLimit)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void spin(volatile int* flag) {
    while (flag[0] == 0) { } // FAULT HERE
})";
    auto img = compile(src, "spin");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("flag", std::vector<int>{0})};
    kw::SimBackend sim;
    auto cfg = config({4}, {64});
    cfg.timeLimitSeconds = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, cfg);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::Timeout);
    EXPECT_EQ(rep.fault->line, lineOf(src, "FAULT HERE"));
    EXPECT_LT(s, 5.0);
}

TEST(SimFaults, SharedMemoryOverrunIsCaught)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void k(int* out) {
    __shared__ int s[32];
    s[threadIdx.x + 1] = threadIdx.x; // FAULT HERE
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {32}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_EQ(rep.fault->thread->x, 31u);
    EXPECT_EQ(rep.fault->line, lineOf(src, "FAULT HERE"));
    EXPECT_TRUE(contains(rep.fault->message, "shared")) << rep.fault->message;
}

TEST(SimFaults, RaceReportNamesBothLines)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void k(int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;           // WRITE
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64]; // READ
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
    kw::SimBackend sim;
    auto quiet = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {64}));
    EXPECT_TRUE(quiet.ok);
    EXPECT_TRUE(quiet.warnings.empty());
    sim.setRaceCheck(true);
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {64}));
    ASSERT_TRUE(rep.ok);
    ASSERT_FALSE(rep.warnings.empty());
    const std::string& w = rep.warnings.front();
    EXPECT_TRUE(contains(w, "line " + std::to_string(lineOf(src, "// WRITE")))) << w;
    EXPECT_TRUE(contains(w, "line " + std::to_string(lineOf(src, "// READ")))) << w;
}

TEST(SimFaults, DivergentBarrierInPtx)
{
    auto r = runPtx(R"(
    and.b32 %r1, %r31, 1;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra $L_even;
    .loc 1 41 0
    bar.sync 0;
    bra.uni $L_end;
$L_even:
    .loc 1 44 0
    bar.sync 0;
$L_end:
)",
                    {}, 64);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::DivergentBarrier);
    EXPECT_TRUE(contains(r.report.fault->message, "line 41")) << r.report.fault->message;
    EXPECT_TRUE(contains(r.report.fault->message, "line 44")) << r.report.fault->message;
}

TEST(SimFaults, BarrierAfterEarlyExitIsDivergent)
{
    // Threads that exited never arrive: the others would wait for them forever.
    auto r = runPtx(R"(
    setp.ge.u32 %p1, %r31, 40;
    @%p1 bra $L_end;
    bar.sync 0;
    st.global.u64 [%rd28], 7;
$L_end:
)",
                    {}, 64);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::DivergentBarrier);
    EXPECT_TRUE(contains(r.report.fault->message, "has exited")) << r.report.fault->message;
    EXPECT_EQ(r.out[39], 0u); // nobody passed the barrier
}

TEST(SimFaults, UnsupportedInstructionNamesItAndTheLine)
{
    auto r = runPtx(R"(
    .loc 1 33 0
    isspacep.global %p1, %rd27;
)",
                    {}, 32);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::Unsupported);
    EXPECT_EQ(r.report.fault->line, 33);
    EXPECT_EQ(r.report.fault->file, "snippet.cu");
    EXPECT_TRUE(contains(r.report.fault->message, "isspacep.global")) << r.report.fault->message;
    ASSERT_FALSE(r.report.warnings.empty());
    EXPECT_TRUE(contains(r.report.warnings.front(), "line 33")) << r.report.warnings.front();
}

TEST(SimFaults, UnknownInstructionIsNotExecutedSilently)
{
    auto r = runPtx(R"(
    .loc 1 35 0
    frobnicate.b32 %r1, %r2;
    st.global.u64 [%rd28], 1;
)",
                    {}, 32);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::Unsupported);
    EXPECT_EQ(r.report.fault->line, 35);
    EXPECT_EQ(r.out[0], 0u);
}

// cg::this_grid() reads the cooperative launch's workspace from %envreg1/2: the fault
// says so rather than naming an operand form.
TEST(SimFaults, AGridGroupSaysCooperativeLaunchesDoNotRun)
{
    auto r = runPtx(R"(
    .loc 1 37 0
    mov.u32 %r1, %envreg2;
)",
                    {}, 32);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::Unsupported);
    EXPECT_EQ(r.report.fault->line, 37);
    EXPECT_TRUE(contains(r.report.fault->message, "does not run cooperative launches")) << r.report.fault->message;
}

TEST(SimFaults, MisalignedAndNullAccesses)
{
    auto mis = runPtx("    ld.global.u32 %r1, [%rd27+2];\n", {}, 32);
    ASSERT_TRUE(mis.report.fault);
    EXPECT_EQ(mis.report.fault->kind, kw::FaultKind::MisalignedAddress);
    auto null = runPtx("    mov.u64 %rd1, 0;\n    ld.global.u32 %r1, [%rd1+16];\n", {}, 32);
    ASSERT_TRUE(null.report.fault);
    EXPECT_EQ(null.report.fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_TRUE(contains(null.report.fault->message, "null pointer")) << null.report.fault->message;
    auto ro = runPtx("    st.global.u32 [coeffs], %r1;\n", {}, 1, ".const .align 4 .b8 coeffs[4];\n");
    ASSERT_TRUE(ro.report.fault);
    EXPECT_TRUE(contains(ro.report.fault->message, "read-only")) << ro.report.fault->message;
}

TEST(SimFaults, EndlessLoopInPtxWithBarrierWaiters)
{
    // Half the block waits at a barrier while the other half spins: a timeout, not a hang.
    auto r = runPtx(R"(
    setp.lt.u32 %p1, %r31, 32;
    @%p1 bra $L_spin;
    bar.sync 0;
    bra.uni $L_end;
$L_spin:
    .loc 1 50 0
    bra.uni $L_spin;
$L_end:
)",
                    {}, 64, "", 0, 0.3);
    ASSERT_TRUE(r.report.fault);
    EXPECT_EQ(r.report.fault->kind, kw::FaultKind::Timeout);
    EXPECT_EQ(r.report.fault->line, 50);
}
