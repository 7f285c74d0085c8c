// The simulator's checks (LaunchConfig::check): memcheck, racecheck, initcheck and
// synccheck on planted bugs compiled by NVRTC, each finding located by kind, line,
// block, thread and address; the same kernels fixed give no finding.
#include "SimTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/PreparedRun.hpp"
#include "run/RunEngine.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

using namespace kwtest;
using kw::CheckTool;

namespace {

kw::LaunchConfig checked(CheckTool tool, kw::Dim3 grid, kw::Dim3 block, std::uint32_t shared = 0)
{
    kw::LaunchConfig c = config(grid, block, shared);
    c.check = tool;
    return c;
}

std::string listed(const std::vector<kw::CheckFinding>& findings)
{
    std::string s;
    for (const auto& f : findings)
        s += "  [" + f.kind + " x" + std::to_string(f.count) + "] " + f.message + "\n";
    return s.empty() ? std::string("  (no findings)\n") : s;
}

const kw::CheckFinding* findKind(const std::vector<kw::CheckFinding>& findings, const std::string& kind)
{
    for (const auto& f : findings)
        if (f.kind == kind)
            return &f;
    return nullptr;
}

// ---- the planted kernels (tests/data/docs/checks/sim has them as documents too)

// The bounds guard left out: the last block's threads past n write beyond c.
const std::string kAddVectorsNoGuard = R"(
extern "C" __global__ void add_vectors(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i]; // PLANTED: no (i < n) guard
})";

// A word read two bytes into a buffer.
const std::string kMisaligned = R"(
extern "C" __global__ void k(const char* bytes, int* out) {
    const int* p = reinterpret_cast<const int*>(bytes + 2 * (threadIdx.x == 5));
    out[threadIdx.x] = p[threadIdx.x]; // PLANTED
})";

// 32 floats of shared memory written by 64 threads.
const std::string kSharedOverrun = R"(
extern "C" __global__ void k(int* out) {
    __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x; // PLANTED
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 32];
})";

// A block sum whose first __syncthreads() is SYNC: without it, the first step reads
// partial[t + 64] before thread t + 64 has stored it.
std::string reduction(bool sync)
{
    return std::string(R"(
extern "C" __global__ void block_sum(const float* in, float* sums) {
    __shared__ float partial[128];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * 128 + t]; // STORE
)") + (sync ? "    __syncthreads();\n" : "    // the __syncthreads() is missing here\n")
        + R"(
    for (unsigned stride = 64; stride > 0; stride >>= 1) {
        if (t < stride) partial[t] += partial[t + stride]; // ADD
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
})";
}

// Warp-synchronous: each lane reads its neighbour's word, then overwrites its own.
std::string neighbours(bool syncwarp)
{
    const char* sync = syncwarp ? "    __syncwarp();\n" : "\n";
    return std::string(R"(
extern "C" __global__ void k(int* out) {
    __shared__ int s[32];
    unsigned t = threadIdx.x;
    s[t] = t; // WRITE
)") + sync
        + R"(    int v = s[(t + 1) % 32]; // READ
)" + sync
        + R"(    s[t] = v * 2; // OVERWRITE
)" + sync
        + R"(    out[t] = s[t];
})";
}

// Only the first half of the shared array is written; the other half is read.
const std::string kSharedReadBeforeWrite = R"(
extern "C" __global__ void k(int* out) {
    __shared__ int s[64];
    if (threadIdx.x < 32) s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x]; // PLANTED
})";

// A local array of which half is written, read at an index the compiler cannot see.
const std::string kLocalReadBeforeWrite = R"(
extern "C" __global__ void k(int* out, const int* idx) {
    int a[16];
    for (int i = 0; i < 8; ++i) a[i] = i * 3;
    out[threadIdx.x] = a[idx[threadIdx.x] & 15]; // PLANTED
})";

const std::string kSyncthreadsInIf = R"(
extern "C" __global__ void k(int* out) {
    if (threadIdx.x < 16) {
        __syncthreads(); // PLANTED
    }
    out[threadIdx.x] = 1;
})";

const std::string kSyncwarpAfterExit = R"(
extern "C" __global__ void k(int* out) {
    if (threadIdx.x >= 16) return;
    out[threadIdx.x] = 1;
    __syncwarp(); // PLANTED: names the 16 lanes that returned
    out[threadIdx.x] += 1;
})";

const std::string kCountedBarrier = R"(
extern "C" __global__ void k(int* out, unsigned count) {
    out[threadIdx.x] = 1;
    asm volatile("bar.sync 0, %0;" :: "r"(count)); // PLANTED
    out[threadIdx.x] += 1;
})";

// Thread 32 (warp 1) stores a value and sets a shared flag (SET); thread 0 (warp 0) waits
// for the flag (WAIT) and reads the value. `set` and `wait` are the handshake's halves.
std::string handoff(const std::string& set, const std::string& wait)
{
    return R"(#include <cuda/atomic>
extern "C" __global__ void k(const int* in, int* out) {
    __shared__ int flag;
    __shared__ int value;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
    volatile int* v = &flag;
    unsigned at = unsigned(__cvta_generic_to_shared(&flag));
    (void)f; (void)v; (void)at;
    if (threadIdx.x == 32) {
        value = in[0]; // WRITE
)" + set + R"(
    }
    if (threadIdx.x == 0) {
)" + wait
        + R"(
        out[0] = value; // READ
    }
})";
}

const std::string kSetRelease = "        f.store(1, cuda::memory_order_release);\n";
const std::string kWaitAcquire = "        while (f.load(cuda::memory_order_acquire) == 0) { }\n";
const std::string kSetRelaxed = "        f.store(1, cuda::memory_order_relaxed);\n";
const std::string kWaitRelaxed = "        while (f.load(cuda::memory_order_relaxed) == 0) { }\n";
const std::string kSetFenced = "        __threadfence_block();\n        *v = 1;\n";
const std::string kWaitFenced = "        while (*v == 0) { }\n        __threadfence_block();\n";

std::vector<kw::CheckFinding> racecheckHandoff(const std::string& src)
{
    auto img = compile(src, "k");
    if (!img)
        return {};
    std::vector<kw::BufferArg> bufs{buffer("in", std::vector<int>{7}), buffer("out", std::vector<int>(1))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {2}, {64}));
    EXPECT_TRUE(rep.ok) << faultMessage(rep.fault);
    return rep.findings;
}

std::vector<kw::BufferArg> reductionBuffers(unsigned blocks)
{
    std::vector<float> in(blocks * 128);
    for (std::size_t i = 0; i < in.size(); ++i)
        in[i] = float(i % 17);
    return {buffer("in", in), buffer("sums", std::vector<float>(blocks))};
}

} // namespace

// ---- memcheck

TEST(SimChecks, MemcheckListsEveryOutOfBoundsThreadAndKeepsTheFault)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kAddVectorsNoGuard, "add_vectors");
    ASSERT_TRUE(img);
    const int n = 1000; // 4 blocks of 256: threads 1000..1023 of block 3 are past the end
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<float>(n, 1)), buffer("b", std::vector<float>(n, 2)),
                                    buffer("c", std::vector<float>(n, 0))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
                          checked(CheckTool::Memcheck, {4}, {256}));
    // As compute-sanitizer: the kernel stops at the fault, which is reported as without the check.
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::OutOfBounds);
    // a[i] is read first: the findings are the reads of a past its end.
    const int line = lineOf(kAddVectorsNoGuard, "PLANTED");
    const std::string kind = "out of bounds read";
    // One finding per thread of the faulting warp instruction: the 24 threads past the end.
    ASSERT_EQ(rep.findings.size(), 24u) << listed(rep.findings);
    for (std::size_t k = 0; k < rep.findings.size(); ++k) {
        const auto& f = rep.findings[k];
        EXPECT_EQ(f.tool, CheckTool::Memcheck);
        EXPECT_EQ(f.kind, kind);
        EXPECT_EQ(f.line, line);
        EXPECT_TRUE(contains(f.file, "kernel.cu")) << f.file;
        ASSERT_TRUE(f.block && f.thread && f.address);
        EXPECT_EQ(*f.block, (kw::Dim3{3, 0, 0}));
        EXPECT_EQ(f.thread->x, 232u + k) << "in thread order";
        EXPECT_EQ(f.count, 1u);
        EXPECT_TRUE(contains(f.message, "past the end of buffer 'a'")) << f.message;
    }
    // Consecutive threads, consecutive floats; the first is 0 bytes past the end of its buffer.
    EXPECT_EQ(*rep.findings[1].address - *rep.findings[0].address, 4u);
    EXPECT_TRUE(contains(rep.findings[0].message, "0 bytes past the end")) << rep.findings[0].message;
    EXPECT_TRUE(contains(rep.findings[0].message, "thread (232,0,0)")) << rep.findings[0].message;
}

TEST(SimChecks, MemcheckFindsTheOutOfBoundsWriteOfTheOutputBuffer)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kAddVectorsNoGuard, "add_vectors");
    ASSERT_TRUE(img);
    // The inputs are large enough: only c is overrun.
    const int n = 1000;
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<float>(1024, 1)), buffer("b", std::vector<float>(1024, 2)),
                                    buffer("c", std::vector<float>(n, 0))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
                          checked(CheckTool::Memcheck, {4}, {256}));
    ASSERT_TRUE(rep.fault);
    ASSERT_EQ(rep.findings.size(), 24u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "out of bounds write");
    EXPECT_EQ(f.line, lineOf(kAddVectorsNoGuard, "PLANTED"));
    EXPECT_EQ(*f.block, (kw::Dim3{3, 0, 0}));
    EXPECT_EQ(f.thread->x, 232u);
    EXPECT_TRUE(contains(f.message, "0 bytes past the end of buffer 'c'")) << f.message;
    EXPECT_TRUE(contains(f.message, "st.global")) << f.message;
    // The address is c's base (named in the message) plus 4000 bytes.
    const auto at = f.message.find("buffer 'c' (0x");
    ASSERT_NE(at, std::string::npos) << f.message;
    const std::uint64_t base = std::stoull(f.message.substr(at + 12), nullptr, 16);
    EXPECT_EQ(*f.address, base + 4000);
    EXPECT_EQ(*rep.findings.back().address, base + 4 * 1023);
}

TEST(SimChecks, MemcheckFindsAMisalignedRead)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kMisaligned, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("bytes", std::vector<char>(256)), buffer("out", std::vector<int>(32))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Memcheck, {1}, {32}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::MisalignedAddress);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "misaligned read");
    EXPECT_EQ(f.line, lineOf(kMisaligned, "PLANTED"));
    EXPECT_EQ(*f.block, (kw::Dim3{0, 0, 0}));
    EXPECT_EQ(*f.thread, (kw::Dim3{5, 0, 0}));
    EXPECT_EQ(*f.address % 4, 2u);
}

TEST(SimChecks, MemcheckFindsASharedMemoryOverrun)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kSharedOverrun, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Memcheck, {1}, {64}));
    ASSERT_TRUE(rep.fault);
    ASSERT_EQ(rep.findings.size(), 32u) << listed(rep.findings); // threads 32..63
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "out of bounds write");
    EXPECT_EQ(f.line, lineOf(kSharedOverrun, "PLANTED"));
    EXPECT_EQ(f.thread->x, 32u);
    EXPECT_EQ(*f.address, 128u); // the shared offset just past s[31]
    EXPECT_TRUE(contains(f.message, "shared memory holds 128 bytes")) << f.message;
}

TEST(SimChecks, MemcheckReportsATrapAsAFaultAsWithoutIt)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void k(int* a) {
    if (a[threadIdx.x] == 5) __trap(); // TRAP
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<int> a(64, 0);
    a[37] = 5;
    std::vector<kw::BufferArg> bufs{buffer("a", a)};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Memcheck, {1}, {64}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::Trap);
    EXPECT_EQ(rep.fault->line, lineOf(src, "TRAP"));
    EXPECT_EQ(rep.fault->thread->x, 37u);
    EXPECT_TRUE(rep.findings.empty()) << listed(rep.findings);
}

// ---- racecheck

TEST(SimChecks, RacecheckFindsTheMissingSyncthreadsOfAReduction)
{
    KW_REQUIRE_NVRTC();
    const std::string src = reduction(false);
    auto img = compile(src, "block_sum");
    ASSERT_TRUE(img);
    const unsigned blocks = 8;
    auto bufs = reductionBuffers(blocks);
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {blocks}, {128}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_FALSE(rep.findings.empty());
    const int store = lineOf(src, "// STORE"), add = lineOf(src, "// ADD");
    // Warp 0 adds partial[t + 64] before warp 2 stores it: a write after a read, both lines named.
    const auto* f = findKind(rep.findings, "shared-memory race: write after read");
    ASSERT_TRUE(f) << listed(rep.findings);
    EXPECT_EQ(f->tool, CheckTool::Racecheck);
    EXPECT_EQ(f->line, store);
    // The earlier access's line travels with the finding: the window marks both.
    EXPECT_EQ(f->otherLine, add);
    EXPECT_EQ(f->otherFile, f->file); // the same kernel.cu, however the compile names it
    EXPECT_TRUE(f->file.ends_with("kernel.cu")) << f->file;
    EXPECT_TRUE(contains(f->message, "kernel.cu:" + std::to_string(add))) << f->message;
    EXPECT_TRUE(contains(f->message, "kernel.cu:" + std::to_string(store))) << f->message;
    EXPECT_TRUE(contains(f->message, "WAR hazard")) << f->message;
    // Named by the first hazard of block 0: thread 64 stores partial[64], which thread 0 read.
    EXPECT_EQ(*f->block, (kw::Dim3{0, 0, 0}));
    EXPECT_EQ(*f->thread, (kw::Dim3{64, 0, 0}));
    EXPECT_EQ(*f->address, 64u * 4);
    EXPECT_TRUE(contains(f->message, "thread (0,0,0) reads")) << f->message;
    // Folded over threads and blocks: 64 words of each of the 8 blocks.
    EXPECT_EQ(f->count, 64u * blocks) << listed(rep.findings);
    for (const auto& g : rep.findings)
        EXPECT_TRUE(g.kind.starts_with("shared-memory race: ")) << g.kind;

    // The same result again, whatever order the host threads ran the blocks in.
    auto again = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {blocks}, {128}));
    ASSERT_EQ(again.findings.size(), rep.findings.size());
    for (std::size_t i = 0; i < rep.findings.size(); ++i) {
        EXPECT_EQ(again.findings[i].message, rep.findings[i].message);
        EXPECT_EQ(again.findings[i].count, rep.findings[i].count);
    }
}

TEST(SimChecks, RacecheckIsQuietOnceTheSyncthreadsIsThere)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(reduction(true), "block_sum");
    ASSERT_TRUE(img);
    auto bufs = reductionBuffers(8);
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {8}, {128}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_TRUE(rep.findings.empty()) << listed(rep.findings);
    EXPECT_TRUE(rep.warnings.empty());
}

TEST(SimChecks, RacecheckOrdersTheLanesOfAWarpBySyncwarp)
{
    KW_REQUIRE_NVRTC();
    kw::SimBackend sim;
    {
        const std::string src = neighbours(false);
        auto img = compile(src, "k");
        ASSERT_TRUE(img);
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
        auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Racecheck, {1}, {32}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        const auto* raw = findKind(rep.findings, "shared-memory race: read after write");
        ASSERT_TRUE(raw) << listed(rep.findings);
        EXPECT_EQ(raw->line, lineOf(src, "// READ"));
        EXPECT_EQ(raw->otherLine, lineOf(src, "// WRITE"));
        EXPECT_EQ(raw->otherFile, raw->file);
        EXPECT_NE(raw->otherLine, raw->line);
        EXPECT_TRUE(contains(raw->message, "kernel.cu:" + std::to_string(lineOf(src, "// WRITE")))) << raw->message;
        EXPECT_EQ(*raw->thread, (kw::Dim3{0, 0, 0})); // lane 0 reads lane 1's word
        EXPECT_EQ(*raw->address, 4u);
        const auto* war = findKind(rep.findings, "shared-memory race: write after read");
        ASSERT_TRUE(war) << listed(rep.findings);
        EXPECT_EQ(war->line, lineOf(src, "// OVERWRITE"));
        EXPECT_EQ(war->otherLine, lineOf(src, "// READ")); // lane 0 overwrites the word lane 31 read
    }
    {
        auto img = compile(neighbours(true), "k");
        ASSERT_TRUE(img);
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
        auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Racecheck, {1}, {32}));
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        EXPECT_TRUE(rep.findings.empty()) << listed(rep.findings);
    }
}

TEST(SimChecks, RacecheckOrdersTheWarpsOfAReleaseAcquireHandshake)
{
    KW_REQUIRE_NVRTC();
    // cuda::atomic_ref (st.release / ld.acquire), the same in PTX, and __threadfence_block
    // around volatile accesses on both sides: the value is published before it is read.
    const std::string ptxSet = "        asm volatile(\"st.release.cta.shared.u32 [%0], %1;\" :: \"r\"(at), \"r\"(1) : "
                               "\"memory\");\n";
    const std::string ptxWait
        = "        unsigned seen;\n        do asm volatile(\"ld.acquire.cta.shared.u32 %0, [%1];\" "
          ": \"=r\"(seen) : \"r\"(at) : \"memory\"); while (seen == 0);\n";
    for (const auto& [set, wait] :
         {std::pair{kSetRelease, kWaitAcquire}, std::pair{ptxSet, ptxWait}, std::pair{kSetFenced, kWaitFenced}}) {
        const auto findings = racecheckHandoff(handoff(set, wait));
        EXPECT_TRUE(findings.empty()) << set << wait << listed(findings);
    }
}

TEST(SimChecks, RacecheckStillFindsAHandshakeThatDoesNotOrderTheValue)
{
    KW_REQUIRE_NVRTC();
    // Relaxed flag accesses; a fence on one side only (a volatile flag set without one is
    // reported too, as any volatile access); the value written after the release.
    const std::string late = kSetRelease + "        value = in[0] + 1; // LATE\n";
    const std::pair<std::string, std::string> unordered[] = {{kSetRelaxed, kWaitRelaxed},
                                                             {kSetFenced, "        while (*v == 0) { }\n"},
                                                             {"        *v = 1;\n", kWaitFenced},
                                                             {late, kWaitAcquire}};
    for (const auto& [set, wait] : unordered) {
        const std::string src = handoff(set, wait);
        const auto findings = racecheckHandoff(src);
        const auto value = std::find_if(findings.begin(), findings.end(),
                                        [&](const kw::CheckFinding& f) { return f.line == lineOf(src, "// READ"); });
        ASSERT_NE(value, findings.end()) << set << wait << listed(findings);
        EXPECT_EQ(value->kind, "shared-memory race: read after write") << set << wait;
        EXPECT_EQ(value->otherLine, lineOf(src, set == late ? "// LATE" : "// WRITE")) << set << wait;
        EXPECT_EQ(*value->thread, (kw::Dim3{0, 0, 0}));
        EXPECT_EQ(value->count, 2u); // once per block
    }
    // The flag of cuda::atomic_ref is atomic: only the value races.
    EXPECT_EQ(racecheckHandoff(handoff(kSetRelaxed, kWaitRelaxed)).size(), 1u);
}

TEST(SimChecks, RacecheckTakesTheLanesOfOneStoreToOneWordAsOneStore)
{
    KW_REQUIRE_NVRTC();
    // Every lane of the warp stores to one word (ONE): one store, as on the device. Two
    // such stores without a __syncwarp between them (FIRST, AGAIN) race.
    const std::string src = R"(
extern "C" __global__ void k(const int* in, int* out) {
    __shared__ int sum;
    int s = __shfl_sync(0xffffffffu, in[threadIdx.x], 0) * 32;
    sum = s; // ONE
    __syncthreads();
    out[threadIdx.x] = sum;
    __syncthreads();
    volatile int* v = &sum;
    *v = s + 1; // FIRST
    *v = s + 2; // AGAIN
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("in", std::vector<int>(32, 1)), buffer("out", std::vector<int>(32))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_EQ(values<int>(bufs[1]), std::vector<int>(32, 32));
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "shared-memory race: write after write");
    EXPECT_EQ(f.line, lineOf(src, "// AGAIN"));
    EXPECT_EQ(f.otherLine, lineOf(src, "// FIRST"));
}

TEST(SimChecks, RacecheckRunsOnTheFirstLaunchOnlyAndTheRepeatsAddNothing)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(reduction(false), "block_sum");
    ASSERT_TRUE(img);
    auto bufs = reductionBuffers(4);
    kw::SimBackend sim;
    auto once = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Racecheck, {4}, {128}));
    kw::LaunchConfig timed = checked(CheckTool::Racecheck, {4}, {128});
    timed.repeats = 3;
    timed.warmup = 1;
    auto repeated = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, timed);
    ASSERT_EQ(repeated.findings.size(), once.findings.size());
    for (std::size_t i = 0; i < once.findings.size(); ++i)
        EXPECT_EQ(repeated.findings[i].count, once.findings[i].count);
    EXPECT_EQ(repeated.timings.repeatMs.size(), 3u);
}

// ---- initcheck

TEST(SimChecks, InitcheckFindsASharedArrayReadBeforeAnyWrite)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kSharedReadBeforeWrite, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Initcheck, {3}, {64}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.tool, CheckTool::Initcheck);
    EXPECT_EQ(f.kind, "uninitialized read");
    EXPECT_EQ(f.line, lineOf(kSharedReadBeforeWrite, "PLANTED"));
    EXPECT_EQ(*f.block, (kw::Dim3{0, 0, 0}));
    EXPECT_EQ(*f.thread, (kw::Dim3{0, 0, 0}));
    EXPECT_EQ(*f.address, 63u * 4); // thread 0 reads s[63]
    EXPECT_TRUE(contains(f.message, "shared")) << f.message;
    // Threads 0..31 of each block read a word no one wrote: shared memory starts afresh per block.
    EXPECT_EQ(f.count, 32u * 3);
}

TEST(SimChecks, InitcheckFindsALocalArrayReadBeforeAnyWrite)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kLocalReadBeforeWrite, "k");
    ASSERT_TRUE(img);
    std::vector<int> idx(32);
    for (int i = 0; i < 32; ++i)
        idx[i] = i % 16; // lanes 8..15 and 24..31 read a[8..15]
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32)), buffer("idx", idx)};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(CheckTool::Initcheck, {1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "uninitialized read");
    EXPECT_EQ(f.line, lineOf(kLocalReadBeforeWrite, "PLANTED"));
    EXPECT_EQ(*f.thread, (kw::Dim3{8, 0, 0}));
    EXPECT_EQ(*f.address, 8u * 4);
    EXPECT_TRUE(contains(f.message, "local")) << f.message;
    EXPECT_EQ(f.count, 16u);

    // Every index below 8: nothing to report.
    std::vector<kw::BufferArg> fine{buffer("out", std::vector<int>(32)), buffer("idx", std::vector<int>(32, 7))};
    auto clean = sim.launch(*img, fine, {bufArg(0), bufArg(1)}, checked(CheckTool::Initcheck, {1}, {32}));
    EXPECT_TRUE(clean.findings.empty()) << listed(clean.findings);
}

TEST(SimChecks, InitcheckListsAtMostAHundredFindingsAndSaysHowManyMore)
{
    KW_REQUIRE_NVRTC();
    // 120 reads of an unwritten shared array, each on a line of its own.
    std::string src = "extern \"C\" __global__ void k(int* out) {\n    __shared__ int s[128];\n"
                      "    volatile int* v = s;\n    int acc = 0;\n";
    for (int i = 0; i < 120; ++i)
        src += "    acc += v[" + std::to_string(i) + "];\n";
    src += "    out[threadIdx.x] = acc;\n}\n";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Initcheck, {1}, {32}));
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 100u);
    for (std::size_t i = 1; i < rep.findings.size(); ++i)
        EXPECT_LT(rep.findings[i - 1].line, rep.findings[i].line) << "in line order";
    EXPECT_EQ(rep.findings.front().count, 32u);
    ASSERT_FALSE(rep.warnings.empty());
    EXPECT_TRUE(contains(rep.warnings.back(), "100 findings listed; 640 more")) << rep.warnings.back();
}

// ---- synccheck

TEST(SimChecks, SynccheckFindsSyncthreadsInsideAnIf)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kSyncthreadsInIf, "k");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    {
        // Without the check the simulator stops at the barrier, as before.
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
        auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({2}, {64}));
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->kind, kw::FaultKind::DivergentBarrier);
        EXPECT_TRUE(rep.findings.empty());
    }
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64 * 2))};
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Synccheck, {2}, {64}));
    // A finding; the barrier releases the 16 threads waiting and the kernel runs to its end.
    EXPECT_FALSE(rep.fault) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.tool, CheckTool::Synccheck);
    EXPECT_EQ(f.kind, "divergent barrier");
    EXPECT_EQ(f.line, lineOf(kSyncthreadsInIf, "PLANTED"));
    EXPECT_EQ(*f.block, (kw::Dim3{0, 0, 0}));
    EXPECT_EQ(*f.thread, (kw::Dim3{16, 0, 0})); // the first thread that never arrives
    EXPECT_TRUE(contains(f.message, "thread (0,0,0) waits")) << f.message;
    EXPECT_TRUE(contains(f.message, "47 more have exited")) << f.message;
    EXPECT_EQ(f.count, 2u); // once per block
    EXPECT_EQ(values<int>(bufs[0])[5], 1);
}

TEST(SimChecks, SynccheckFindsThreadsWaitingAtDifferentBarriers)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void k(int* out) {
    if (threadIdx.x % 64 < 32) {
        __syncthreads(); // FIRST
        out[threadIdx.x] = 1;
    } else {
        out[threadIdx.x] = 2;
        __syncthreads(); // SECOND
    }
})";
    auto img = compile(src, "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(128))};
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Synccheck, {1}, {128}));
    EXPECT_FALSE(rep.fault) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "divergent barrier");
    EXPECT_EQ(f.line, lineOf(src, "SECOND"));
    EXPECT_TRUE(contains(f.message, "kernel.cu:" + std::to_string(lineOf(src, "FIRST")))) << f.message;
    EXPECT_EQ(*f.thread, (kw::Dim3{32, 0, 0}));
    EXPECT_TRUE(contains(f.message, "this thread and 63 more")) << f.message;
}

TEST(SimChecks, SynccheckFindsASyncwarpNamingExitedLanes)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kSyncwarpAfterExit, "k");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(32))};
    auto quiet = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {32}));
    EXPECT_TRUE(quiet.ok) << faultMessage(quiet.fault);
    auto rep = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Synccheck, {1}, {32}));
    EXPECT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "invalid __syncwarp mask");
    EXPECT_EQ(f.line, lineOf(kSyncwarpAfterExit, "PLANTED"));
    EXPECT_EQ(*f.thread, (kw::Dim3{0, 0, 0}));
    EXPECT_TRUE(contains(f.message, "exited (0xffff0000)")) << f.message;
    // A warp of 16 threads only: the lanes past the block never existed, and are not named.
    auto partial = sim.launch(*img, bufs, {bufArg(0)}, checked(CheckTool::Synccheck, {1}, {16}));
    EXPECT_TRUE(partial.findings.empty()) << listed(partial.findings);
}

TEST(SimChecks, BarrierWithAThreadCountRunsWhenItNamesTheBlockAndIsAFindingOtherwise)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kCountedBarrier, "k");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar<unsigned>(64)}, checked(CheckTool::Synccheck, {1}, {64}));
        EXPECT_TRUE(rep.ok) << faultMessage(rep.fault);
        EXPECT_TRUE(rep.findings.empty()) << listed(rep.findings);
        EXPECT_EQ(values<int>(bufs[0])[63], 2);
        // 48 threads are two warps: a count of 64 names them all.
        auto partial = sim.launch(*img, bufs, {bufArg(0), scalar<unsigned>(64)}, config({1}, {48}));
        EXPECT_TRUE(partial.ok) << faultMessage(partial.fault);
    }
    {
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
        auto rep = sim.launch(*img, bufs, {bufArg(0), scalar<unsigned>(32)}, config({1}, {64}));
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->kind, kw::FaultKind::Unsupported) << rep.fault->message;
        rep = sim.launch(*img, bufs, {bufArg(0), scalar<unsigned>(40)}, config({1}, {64}));
        ASSERT_TRUE(rep.fault);
        EXPECT_EQ(rep.fault->kind, kw::FaultKind::Other) << rep.fault->message;
    }
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(64))};
    auto rep = sim.launch(*img, bufs, {bufArg(0), scalar<unsigned>(32)}, checked(CheckTool::Synccheck, {1}, {64}));
    EXPECT_FALSE(rep.fault) << faultMessage(rep.fault);
    ASSERT_EQ(rep.findings.size(), 1u) << listed(rep.findings);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.kind, "invalid barrier thread count");
    EXPECT_EQ(f.line, lineOf(kCountedBarrier, "PLANTED"));
    EXPECT_EQ(*f.thread, (kw::Dim3{0, 0, 0}));
    EXPECT_TRUE(contains(f.message, "thread count of 32 in a block of 64 threads")) << f.message;
}

// ---- every tool on a clean kernel

TEST(SimChecks, ACleanKernelGivesNoFindingUnderAnyTool)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(reduction(true), "block_sum");
    ASSERT_TRUE(img);
    auto warp = compile(neighbours(true), "k");
    ASSERT_TRUE(warp);
    kw::SimBackend sim;
    for (CheckTool tool : {CheckTool::Memcheck, CheckTool::Racecheck, CheckTool::Initcheck, CheckTool::Synccheck}) {
        auto bufs = reductionBuffers(16);
        auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1)}, checked(tool, {16}, {128}));
        EXPECT_TRUE(rep.ok) << kw::toString(tool) << ": " << faultMessage(rep.fault);
        EXPECT_TRUE(rep.findings.empty()) << kw::toString(tool) << ":\n" << listed(rep.findings);
        const auto sums = values<float>(bufs[1]);
        float expect = 0;
        for (unsigned i = 0; i < 128; ++i)
            expect += float(i % 17);
        EXPECT_EQ(sums[0], expect) << kw::toString(tool);
        std::vector<kw::BufferArg> out{buffer("out", std::vector<int>(32))};
        auto w = sim.launch(*warp, out, {bufArg(0)}, checked(tool, {1}, {32}));
        EXPECT_TRUE(w.ok) << kw::toString(tool) << ": " << faultMessage(w.fault);
        EXPECT_TRUE(w.findings.empty()) << kw::toString(tool) << ":\n" << listed(w.findings);
    }
}

// ---- the documents of tests/data/docs/checks/sim

namespace {

namespace fs = std::filesystem;

const fs::path kCheckDocs = fs::path(KW_TEST_DATA_DIR) / "docs" / "checks" / "sim";

struct DocumentCase {
    const char* file;
    CheckTool tool;
    const char* kind;                   // of the finding expected on the line marked PLANTED
    CheckTool alsoBy = CheckTool::None; // another tool with a finding of its own in it
};

const DocumentCase kDocumentCases[] = {
    {"memcheck_out_of_bounds.kwb", CheckTool::Memcheck, "out of bounds read"},
    {"memcheck_misaligned.kwb", CheckTool::Memcheck, "misaligned read"},
    // The read before the store is also a read of what no thread wrote yet.
    {"racecheck_reduction_missing_sync.kwb", CheckTool::Racecheck, "shared-memory race: write after read",
     CheckTool::Initcheck},
    {"racecheck_warp_neighbours.kwb", CheckTool::Racecheck, "shared-memory race: read after write"},
    {"initcheck_shared_read_before_write.kwb", CheckTool::Initcheck, "uninitialized read"},
    {"initcheck_local_array.kwb", CheckTool::Initcheck, "uninitialized read"},
    {"synccheck_syncthreads_in_if.kwb", CheckTool::Synccheck, "divergent barrier"},
    {"synccheck_syncwarp_after_return.kwb", CheckTool::Synccheck, "invalid __syncwarp mask"},
    {"synccheck_barrier_count.kwb", CheckTool::Synccheck, "invalid barrier thread count"},
};

struct DocumentRun {
    kw::LaunchReport report;
    std::vector<kw::CheckResult> checks;
};

// Compiles, prepares and launches a document on the simulator as kwb-run would, under `tool`.
DocumentRun runDocument(const kw::Document& doc, CheckTool tool)
{
    DocumentRun r;
    kw::CompileRequest request = kw::RunEngine::compileRequest(doc);
    request.options.arch = kw::SimBackend().compileArch();
    kw::Compiler compiler;
    const kw::CompileResult compiled = compiler.compile(request);
    EXPECT_TRUE(compiled.ok) << compiled.log;
    if (!compiled.ok)
        return r;
    kw::KernelImage img;
    img.name = doc.kernel;
    img.loweredName = compiled.loweredNames.at(doc.kernel);
    img.ptx = compiled.ptx;
    kw::PreparedRun prepared = kw::PreparedRun::fromDocument(doc);
    prepared.config.check = tool;
    prepared.config.repeats = 0;
    prepared.config.warmup = 0;
    kw::SimBackend sim;
    r.report = sim.launch(img, prepared.buffers, prepared.args, prepared.config);
    if (!r.report.fault)
        r.checks = prepared.evaluateChecks(doc);
    return r;
}

} // namespace

TEST(SimChecks, EveryCheckDocumentIsRunHere)
{
    std::set<std::string> known;
    for (const auto& c : kDocumentCases)
        known.insert(c.file);
    std::size_t found = 0;
    for (const auto& e : fs::directory_iterator(kCheckDocs)) {
        if (e.path().extension() != ".kwb")
            continue;
        ++found;
        const std::string name = e.path().filename().string();
        EXPECT_TRUE(known.count(name) || name.starts_with("clean_")) << name << " is not in kDocumentCases";
    }
    EXPECT_GE(found, std::size(kDocumentCases));
}

TEST(SimChecks, EachCheckDocumentGivesItsFindingOnThePlantedLine)
{
    KW_REQUIRE_NVRTC();
    for (const auto& c : kDocumentCases) {
        SCOPED_TRACE(c.file);
        const kw::Document doc = kw::DocumentReader::readFile(kCheckDocs / c.file);
        const int line = lineOf(doc.source, "PLANTED");
        ASSERT_GT(line, 0);
        const DocumentRun r = runDocument(doc, c.tool);
        const auto* f = findKind(r.report.findings, c.kind);
        ASSERT_TRUE(f) << listed(r.report.findings);
        EXPECT_EQ(f->tool, c.tool);
        EXPECT_EQ(f->line, line) << f->message;
        // The other tools find nothing in it (a fault is no finding): each document plants one bug.
        for (CheckTool other :
             {CheckTool::Memcheck, CheckTool::Racecheck, CheckTool::Initcheck, CheckTool::Synccheck}) {
            if (other == c.tool)
                continue;
            const DocumentRun o = runDocument(doc, other);
            EXPECT_EQ(o.report.findings.empty(), other != c.alsoBy) << kw::toString(other) << ":\n"
                                                                    << listed(o.report.findings);
        }
    }
}

TEST(SimChecks, TheCleanDocumentsGiveNoFindingAndPassTheirChecks)
{
    KW_REQUIRE_NVRTC();
    int clean = 0;
    for (const auto& e : fs::directory_iterator(kCheckDocs)) {
        const std::string name = e.path().filename().string();
        if (!name.starts_with("clean_"))
            continue;
        ++clean;
        SCOPED_TRACE(name);
        const kw::Document doc = kw::DocumentReader::readFile(e.path());
        for (CheckTool tool : {CheckTool::Memcheck, CheckTool::Racecheck, CheckTool::Initcheck, CheckTool::Synccheck}) {
            const DocumentRun r = runDocument(doc, tool);
            EXPECT_TRUE(r.report.ok) << kw::toString(tool) << ": " << faultMessage(r.report.fault);
            EXPECT_TRUE(r.report.findings.empty()) << kw::toString(tool) << ":\n" << listed(r.report.findings);
            ASSERT_FALSE(r.checks.empty());
            for (const auto& check : r.checks)
                EXPECT_TRUE(check.passed) << kw::toString(tool) << ": " << check.buffer;
        }
    }
    // A folder that lost its clean documents would pass the loop above by doing nothing.
    EXPECT_EQ(clean, 1) << "clean_*.kwb documents in " << kCheckDocs;
}
