// A debugger session on purpose-written kernels: what it shows at a stop (lanes, their
// divergence, registers, frames, shared memory, the warps of a block) is compared with
// what each lane holds there, worked out on the host.
#include "DebugTestSupport.hpp"
#include "sim/LoadFmaChains.hpp"
#include "sim/PlainLines.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

using namespace kwtest;
using namespace kw::debug;

// Lanes whose thread index is a multiple of 4 take the `if`, the others the `else`;
// each side has a loop, so the compiler keeps the branch.
const std::string kBranch = R"(
__global__ void branchy(int *out)
{
    int t = threadIdx.x;
    int v = t * 3;
    if (t % 4 == 0) {
        for (int k = 0; k < t; ++k) v += k; // then
    } else {
        for (int k = 0; k < t; k += 2) v -= 1; // else
    }
    out[t] = v; // store
}
)";

int branchValue(int t) { return t % 4 == 0 ? 3 * t + t * (t - 1) / 2 : 3 * t - (t + 1) / 2; }

std::unique_ptr<DebugSession> branchSession(int threads = 64)
{
    return debugSession(kBranch, "branchy", {typed("out", std::vector<int>(std::size_t(threads), 0))}, {bufArg(0)},
                        config({1, 1, 1}, {std::uint32_t(threads), 1, 1}));
}

TEST(DebugSession, StartsBeforeTheFirstInstruction)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->stop().reason, StopReason::Entry);
    EXPECT_EQ(s->stop().position, 0u);
    EXPECT_EQ(s->warp().active, 0xffffffffu);
    EXPECT_EQ(s->warp().where.pc, 0u);
    EXPECT_EQ(s->warpsPerBlock(), 2u);
}

TEST(DebugSession, ABreakpointInADivergentBranchShowsItsLanesAndTheOthersWaiting)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    const auto then = std::uint32_t(lineOf(kBranch, "// then"));
    const BreakpointInfo b = s->addBreakpoint({"", then});
    EXPECT_EQ(b.line, then);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint) << hit.message;
    EXPECT_EQ(hit.breakpoint, b.id);
    EXPECT_EQ(hit.warp, 0u);
    EXPECT_EQ(hit.lane, 0);
    const WarpView w = s->warp();
    EXPECT_EQ(w.where.line, then);
    EXPECT_EQ(w.active, 0x11111111u); // lanes 0, 4, 8, ...
    std::uint32_t waiting = 0;
    for (const LaneGroup& g : w.groups)
        if (g.state == LaneGroup::State::Diverged)
            waiting |= g.lanes;
    EXPECT_EQ(waiting, ~0x11111111u);
    EXPECT_EQ(laneMap(w), "#ddd#ddd#ddd#ddd#ddd#ddd#ddd#ddd");

    // Warp 1 stops there too, at its own lanes, once the condition asks for it.
    s->removeBreakpoint(b.id);
    BreakpointSpec warp1{"", then};
    warp1.condition = "warp == 1";
    s->addBreakpoint(warp1);
    const Stop second = s->resume(Motion::Continue);
    ASSERT_EQ(second.reason, StopReason::Breakpoint);
    EXPECT_EQ(second.warp, 1u);
    EXPECT_EQ(s->focus().warp, 1u);
    EXPECT_EQ(s->warp().active, 0x11111111u);
    s->removeBreakpoint(second.breakpoint);
    EXPECT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    const auto out = values<int>(s->buffers()[0]);
    for (int t = 0; t < 64; ++t)
        EXPECT_EQ(out[std::size_t(t)], branchValue(t)) << t;
}

TEST(DebugSession, ReconvergeRunsTheWarpUntilItsLanesAreTogetherAndTheirValuesAreTheHosts)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    const BreakpointInfo b = s->addBreakpoint({"", std::uint32_t(lineOf(kBranch, "// then"))});
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    s->removeBreakpoint(b.id); // the loop would hit it again
    const Stop r = s->resume(Motion::Reconverge);
    ASSERT_EQ(r.reason, StopReason::Reconverged) << r.message;
    EXPECT_EQ(s->warp().active, 0xffffffffu);
    ASSERT_TRUE(stepUntil(*s, "st.global"));
    EXPECT_EQ(s->warp().where.line, std::uint32_t(lineOf(kBranch, "// store")));
    const auto lanes = s->lanes(storedRegister(nextInstruction(*s)));
    for (int l = 0; l < 32; ++l)
        EXPECT_EQ(lanes[std::size_t(l)].number, branchValue(l)) << "lane " << l;
    // print reads the focused lane; thread 37 is warp 1's lane 5, which has not run yet.
    s->focusLane(6);
    EXPECT_EQ(s->evaluate(storedRegister(nextInstruction(*s))).number, branchValue(6));
    EXPECT_EQ(s->evaluate("threadIdx.x * 2 + lane").number, 18);
}

TEST(DebugSession, AConditionStopsTheWarpAtTheFirstLaneThatSatisfiesIt)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    const auto line = std::uint32_t(lineOf(kBranch, "// else"));
    BreakpointSpec spec{"", line};
    spec.condition = "threadIdx.x >= 40 && lane % 2 == 1";
    s->addBreakpoint(spec);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint);
    EXPECT_EQ(hit.warp, 1u);
    EXPECT_EQ(hit.lane, 9); // thread 41
    EXPECT_EQ(s->focus().lane, 9u);
    EXPECT_EQ(s->evaluate("threadIdx.x").number, 41);
    // A lane whose guard fails does not count: lanes of the `then` side never reach it.
    BreakpointSpec never{"", line};
    never.condition = "threadIdx.x % 4 == 0";
    auto t = branchSession();
    t->addBreakpoint(never);
    EXPECT_EQ(t->resume(Motion::Continue).reason, StopReason::Finished);
}

TEST(DebugSession, IgnoreCountsHitsAndAllLanesWaitsForTheWholeWarp)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession(96);
    ASSERT_TRUE(s);
    BreakpointSpec spec{"", std::uint32_t(lineOf(kBranch, "// store"))};
    spec.ignore = 2;
    s->addBreakpoint(spec);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint);
    EXPECT_EQ(hit.warp, 2u); // warps 0 and 1 were ignored
    EXPECT_EQ(s->breakpoints()[0].hits, 3u);

    auto all = branchSession();
    BreakpointSpec store{"", std::uint32_t(lineOf(kBranch, "// store"))};
    store.mode = BreakMode::AllLanes;
    all->addBreakpoint(store);
    ASSERT_EQ(all->resume(Motion::Continue).reason, StopReason::Breakpoint);
    EXPECT_EQ(all->warp().active, 0xffffffffu);
    EXPECT_EQ(all->warp().where.line, store.line);
}

// Device functions kept as calls (__noinline__), two deep.
const std::string kNested = R"(
__device__ __noinline__ int inner(int x)
{
    return x * 2 + 1; // inner
}
__device__ __noinline__ int outer(int x)
{
    int y = inner(x + 1); // call inner
    return y * 10; // after inner
}
__global__ void nested(int *out)
{
    int t = threadIdx.x;
    int r = outer(t); // call outer
    out[t] = r + 7; // store
}
)";

TEST(DebugSession, BacktraceFinishAndNextFollowInlinedCalls)
{
    KW_REQUIRE_NVRTC();
    auto s = debugSession(kNested, "nested", {typed("out", std::vector<int>(32, 0))}, {bufArg(0)},
                          config({1, 1, 1}, {32, 1, 1}));
    ASSERT_TRUE(s);
    s->addBreakpoint({"", std::uint32_t(lineOf(kNested, "// inner"))});
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    const auto frames = s->backtrace();
    ASSERT_EQ(frames.size(), 3u);
    EXPECT_TRUE(contains(frames[0].function, "inner")) << frames[0].function;
    EXPECT_EQ(frames[0].where.line, std::uint32_t(lineOf(kNested, "// inner")));
    EXPECT_TRUE(contains(frames[1].function, "outer"));
    EXPECT_EQ(frames[1].where.line, std::uint32_t(lineOf(kNested, "// call inner")));
    EXPECT_TRUE(contains(frames[2].function, "nested"));
    EXPECT_EQ(frames[2].where.line, std::uint32_t(lineOf(kNested, "// call outer")));

    const Stop f = s->resume(Motion::Finish);
    EXPECT_EQ(f.reason, StopReason::Step);
    EXPECT_EQ(s->backtrace().size(), 2u);
    EXPECT_TRUE(contains(s->backtrace()[0].function, "outer"));
    s->resume(Motion::Finish);
    EXPECT_EQ(s->backtrace().size(), 1u);
    // Finish in the kernel itself is refused.
    EXPECT_THROW(s->resume(Motion::Finish), kw::Error);

    // next from the call line of outer steps over both calls to the store.
    auto n = debugSession(kNested, "nested", {typed("out", std::vector<int>(32, 0))}, {bufArg(0)},
                          config({1, 1, 1}, {32, 1, 1}));
    n->addBreakpoint({"", std::uint32_t(lineOf(kNested, "// call outer"))});
    ASSERT_EQ(n->resume(Motion::Continue).reason, StopReason::Breakpoint);
    for (int i = 0; i < 10 && n->warp().where.line != std::uint32_t(lineOf(kNested, "// store")); ++i) {
        n->resume(Motion::Next);
        EXPECT_EQ(n->backtrace().size(), 1u) << "next went into a call at " << n->warp().where.instruction;
    }
    EXPECT_EQ(n->warp().where.line, std::uint32_t(lineOf(kNested, "// store")));
    ASSERT_TRUE(stepUntil(*n, "st.global"));
    const auto lanes = n->lanes(storedRegister(nextInstruction(*n)));
    for (int l = 0; l < 32; ++l)
        EXPECT_EQ(lanes[std::size_t(l)].number, ((l + 1) * 2 + 1) * 10 + 7) << l;

    // step goes into the calls: from the call of outer, the next lines are outer's and inner's.
    auto st = debugSession(kNested, "nested", {typed("out", std::vector<int>(32, 0))}, {bufArg(0)},
                           config({1, 1, 1}, {32, 1, 1}));
    st->addBreakpoint({"", std::uint32_t(lineOf(kNested, "// call outer"))});
    st->resume(Motion::Continue);
    std::size_t deepest = 0;
    for (int i = 0; i < 20 && !st->ended(); ++i) {
        st->resume(Motion::Step);
        if (!st->ended())
            deepest = std::max(deepest, st->backtrace().size());
    }
    EXPECT_EQ(deepest, 3u);
}

// A loop whose trip count each thread reads from memory.
const std::string kLoop = R"(
__global__ void triangle(const int *n, int *out)
{
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < n[t]; ++i) {
        s += i * t; // body
    }
    out[t] = s; // store
}
)";

TEST(DebugSession, ALoopWithADataDependentTripCount)
{
    KW_REQUIRE_NVRTC();
    std::vector<int> trips(32);
    for (int t = 0; t < 32; ++t)
        trips[std::size_t(t)] = (t * 7) % 5;
    auto s = debugSession(kLoop, "triangle", {typed("n", trips), typed("out", std::vector<int>(32, 0))},
                          {bufArg(0), bufArg(1)}, config({1, 1, 1}, {32, 1, 1}));
    ASSERT_TRUE(s);
    // Lane 3 runs (3*7)%5 = 1 pass; lane 6 runs 2; the condition reads the buffer.
    BreakpointSpec spec{"", std::uint32_t(lineOf(kLoop, "// body"))};
    spec.condition = "n(threadIdx.x) == 4 && threadIdx.x > 10";
    s->addBreakpoint(spec);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint);
    EXPECT_EQ(trips[std::size_t(hit.lane)], 4);
    EXPECT_GT(hit.lane, 10);
    // At the loop's start every lane with at least one pass is active.
    std::uint32_t looping = 0;
    for (int t = 0; t < 32; ++t)
        if (trips[std::size_t(t)] > 0)
            looping |= 1u << t;
    EXPECT_EQ(s->warp().active & looping, s->warp().active);
    s->removeBreakpoint(1);
    ASSERT_TRUE(stepUntil(*s, "st.global", 5000));
    const auto lanes = s->lanes(storedRegister(nextInstruction(*s)));
    for (int t = 0; t < 32; ++t) {
        const int n = trips[std::size_t(t)];
        EXPECT_EQ(lanes[std::size_t(t)].number, t * n * (n - 1) / 2) << t;
    }
}

// The tree reduction of samples/reduction_shared.kwb, on 64 threads.
const std::string kReduce = R"(
__global__ void block_sum(const float *in, float *block_sums, int n)
{
    extern __shared__ float partial[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[tid] = (i < n) ? in[i] : 0.0f; // load
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            partial[tid] += partial[tid + stride]; // add
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = partial[0];
}
)";

std::unique_ptr<DebugSession> reduceSession(int blocks = 2)
{
    std::vector<float> in(std::size_t(64 * blocks));
    std::iota(in.begin(), in.end(), 0.0f);
    return debugSession(
        kReduce, "block_sum", {typed("in", in), typed("block_sums", std::vector<float>(std::size_t(blocks), 0.0f))},
        {bufArg(0), bufArg(1), scalar<int>(64 * blocks)}, config({std::uint32_t(blocks), 1, 1}, {64, 1, 1}, 64 * 4));
}

TEST(DebugSession, BarrierRunsTheBlockToEachReleaseAndSharedHoldsTheHostsPartialSums)
{
    KW_REQUIRE_NVRTC();
    auto s = reduceSession();
    ASSERT_TRUE(s);
    const Stop b = s->focusBlock(1);
    EXPECT_EQ(b.reason, StopReason::BlockBegin);
    EXPECT_EQ(s->focus().block, 1u);
    std::vector<float> host(64);
    for (int t = 0; t < 64; ++t)
        host[std::size_t(t)] = float(64 + t);
    // After the first barrier: the loaded values. Then one halving per barrier.
    ASSERT_EQ(s->resume(Motion::Barrier).reason, StopReason::Barrier);
    for (std::uint32_t stride = 32;; stride /= 2) {
        const auto words = s->shared(kw::DType::F32, 0, 64);
        for (int t = 0; t < 64; ++t) {
            EXPECT_EQ(words[std::size_t(t)].value, host[std::size_t(t)]) << "stride " << stride << " t " << t;
            EXPECT_EQ(words[std::size_t(t)].bank, std::uint32_t(t % 32));
        }
        if (stride == 0)
            break;
        for (std::uint32_t t = 0; t < stride; ++t)
            host[t] += host[t + stride];
        const Stop r = s->resume(Motion::Barrier);
        ASSERT_EQ(r.reason, StopReason::Barrier) << "stride " << stride;
        for (const WarpView& w : s->warps())
            EXPECT_FALSE(w.done);
    }
    // No barrier is left: the block runs to its end.
    EXPECT_EQ(s->resume(Motion::Barrier).reason, StopReason::Finished);
    EXPECT_EQ(values<float>(s->buffers()[1])[1], host[0]);
}

TEST(DebugSession, InfoWarpsShowsWhoWaitsAtTheBarrier)
{
    KW_REQUIRE_NVRTC();
    auto s = reduceSession(1);
    ASSERT_TRUE(s);
    s->addBreakpoint({"", std::uint32_t(lineOf(kReduce, "// add"))});
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    EXPECT_EQ(s->focus().warp, 0u);
    const auto warps = s->warps();
    ASSERT_EQ(warps.size(), 2u);
    EXPECT_FALSE(warps[0].atBarrier);
    // Warp 1 ran to the first barrier of the loop, or has not come so far: it is not at the add.
    EXPECT_NE(warps[1].where.line, std::uint32_t(lineOf(kReduce, "// add")));
    // The lanes of the add are those with tid < 32, all of warp 0.
    EXPECT_EQ(warps[0].active, 0xffffffffu);
}

TEST(DebugSession, WatchStopsAtTheWriteWithItsOldAndNewValue)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    const WatchInfo w = s->addWatch({"out", 37});
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Watch);
    ASSERT_TRUE(hit.watch);
    EXPECT_EQ(hit.watch->watch, w.id);
    EXPECT_EQ(hit.watch->warp, 1u);
    EXPECT_EQ(hit.watch->lane, 5);
    EXPECT_EQ(hit.watch->oldValue, 0);
    EXPECT_EQ(hit.watch->newValue, branchValue(37));
    EXPECT_EQ(hit.watch->where.line, std::uint32_t(lineOf(kBranch, "// store")));
    EXPECT_EQ(s->focus().warp, 1u);
    EXPECT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);

    // Shared memory: every write of partial[0], in order, with the host's values.
    auto r = reduceSession(1);
    r->addWatch({"", 0, kw::DType::F32});
    std::vector<float> host(64);
    std::iota(host.begin(), host.end(), 0.0f);
    std::vector<std::pair<double, double>> expected{{0, 0}}; // the load writes 0 over 0
    for (std::uint32_t stride = 32; stride > 0; stride /= 2) {
        const float before = host[0];
        for (std::uint32_t t = 0; t < stride; ++t)
            host[t] += host[t + stride];
        expected.emplace_back(before, host[0]);
    }
    for (const auto& [before, after] : expected) {
        const Stop h = r->resume(Motion::Continue);
        ASSERT_EQ(h.reason, StopReason::Watch);
        EXPECT_EQ(h.watch->lane, 0);
        EXPECT_EQ(h.watch->oldValue, before);
        EXPECT_EQ(h.watch->newValue, after);
    }
    EXPECT_EQ(r->resume(Motion::Continue).reason, StopReason::Finished);

    // rwatch: the reads of in(3): the load of thread 3.
    auto rw = reduceSession(1);
    WatchSpec read{"in", 3};
    read.reads = true;
    rw->addWatch(read);
    const Stop rh = rw->resume(Motion::Continue);
    ASSERT_EQ(rh.reason, StopReason::Watch);
    EXPECT_FALSE(rh.watch->write);
    EXPECT_EQ(rh.watch->lane, 3);
    EXPECT_EQ(rh.watch->where.line, std::uint32_t(lineOf(kReduce, "// load")));
    EXPECT_EQ(rw->resume(Motion::Continue).reason, StopReason::Finished);
}

TEST(DebugSession, AFaultStopsAtItsLaneAndLine)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
__global__ void oob(int *out)
{
    int t = threadIdx.x;
    out[t * 100] = t; // write
}
)";
    auto s = debugSession(src, "oob", {typed("out", std::vector<int>(1000, 0))}, {bufArg(0)},
                          config({1, 1, 1}, {32, 1, 1}));
    ASSERT_TRUE(s);
    const Stop f = s->resume(Motion::Continue);
    ASSERT_EQ(f.reason, StopReason::Fault);
    EXPECT_EQ(f.lane, 10); // 10 * 100 is past 1000 elements
    EXPECT_TRUE(contains(f.message, "out-of-bounds")) << f.message;
    EXPECT_TRUE(s->ended());
    EXPECT_THROW(s->resume(Motion::Step), kw::Error);
    // Back before the faulting store.
    const Stop back = s->resume(Motion::ReverseStep);
    EXPECT_FALSE(s->ended());
    EXPECT_LT(back.position, f.position + 1);
}

// With nothing armed (and no shared memory to note the writers of) a debugger's launch runs
// as a plain one does, a row-by-column loop's loads and fmas as one step; a fault after it
// still shows every register as the instructions one by one leave it: the last values the
// loop loaded and its partial sums, which the kernel never reads again (a launch nothing
// observes leaves those unwritten).
TEST(DebugSession, AFaultAfterAnUnrolledProductShowsWhatItLoaded)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
__global__ void rows(const float *a, const float *b, float *out, int stride)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    float s = 0;
    for (int k = 0; k < 16; k++)
        s += a[ty * 16 + k] * b[k * 16 + tx];
    out[(ty * 16 + tx) * stride] = s; // store
}
)";
    std::vector<float> a(256), b(256);
    for (int i = 0; i < 256; ++i) {
        a[i] = 0.5f + float(i) * 0.37f;
        b[i] = -1.25f - float(i) * 0.11f;
    }
    // Thread 32 (warp 1, lane 0) is the first to store past the 256 elements.
    auto s = debugSession(src, "rows", {typed("a", a), typed("b", b), typed("out", std::vector<float>(256, 0))},
                          {bufArg(0), bufArg(1), bufArg(2), scalar<int>(8)}, config({1, 1, 1}, {16, 16, 1}));
    ASSERT_TRUE(s);
    // From its second step on the loop is one chain, of which only the sum is read again.
    const kw::sim::Function& fn = s->function();
    std::vector<std::uint32_t> loads, fmas;
    for (std::uint32_t pc = 0; pc < fn.code.size(); ++pc) {
        if (fn.text[pc].starts_with("ld.global.f32"))
            loads.push_back(pc);
        if (fn.text[pc].starts_with("fma.rn.f32"))
            fmas.push_back(pc);
    }
    ASSERT_EQ(loads.size(), 32u);
    ASSERT_EQ(fmas.size(), 16u);
    const kw::sim::PlainLines lines(fn);
    const kw::sim::LoadFmaChain chain = kw::sim::LoadFmaChains(fn).at(loads[2], lines.length(loads[2]));
    ASSERT_EQ(chain.steps, 15u);
    ASSERT_EQ(chain.live, std::uint64_t(1) << 44);

    const Stop f = s->resume(Motion::Continue);
    ASSERT_EQ(f.reason, StopReason::Fault) << f.message;
    ASSERT_EQ(s->focus().warp, 1u);
    const auto x = s->lanes(writtenRegister(fn.text[loads[30]]));
    const auto y = s->lanes(writtenRegister(fn.text[loads[31]]));
    const auto partial = s->lanes(writtenRegister(fn.text[fmas[fmas.size() - 2]]));
    for (int l = 0; l < 32; ++l) {
        const int ty = (32 + l) / 16, tx = l % 16;
        std::vector<double> seen{x[l].number, y[l].number}, loaded{a[ty * 16 + 15], b[15 * 16 + tx]};
        std::ranges::sort(seen);
        std::ranges::sort(loaded);
        EXPECT_EQ(seen, loaded) << "lane " << l;
        float sum = 0;
        for (int k = 0; k < 15; ++k)
            sum = std::fma(a[ty * 16 + k], b[k * 16 + tx], sum);
        EXPECT_EQ(partial[l].number, double(sum)) << "lane " << l;
    }
}

TEST(DebugSession, RefusesWhatTheKernelDoesNotHave)
{
    KW_REQUIRE_NVRTC();
    auto s = branchSession();
    ASSERT_TRUE(s);
    EXPECT_THROW(s->addBreakpoint({"", 1000}), kw::Error);
    EXPECT_THROW(s->addBreakpoint({"other.cu", 5}), kw::Error);
    BreakpointSpec bad{"", std::uint32_t(lineOf(kBranch, "// store"))};
    bad.condition = "nosuchname > 1";
    EXPECT_THROW(s->addBreakpoint(bad), kw::Error);
    EXPECT_THROW(s->focusWarp(2), kw::Error);
    EXPECT_THROW(s->focusBlock(1), kw::Error);
    EXPECT_THROW(s->addWatch({"nope", 0}), kw::Error);
    EXPECT_THROW(s->addWatch({"out", 64}), kw::Error);
    EXPECT_THROW(s->lanes("%nosuch"), kw::Error);
}

} // namespace

namespace {

// Thread t reads what thread t - 1 wrote, with no barrier between: a race across warps.
const std::string kRacy = R"(
__global__ void racy(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * 2; // write
    out[t] = t > 0 ? s[t - 1] : 0; // read
}
)";

TEST(DebugSessionChecks, ARaceFoundByRacecheckStopsAtItsLaneAndLine)
{
    KW_REQUIRE_NVRTC();
    auto cfg = config({1, 1, 1}, {64, 1, 1});
    cfg.check = kw::CheckTool::Racecheck;
    auto s = debugSession(kRacy, "racy", {typed("out", std::vector<int>(64, 0))}, {bufArg(0)}, cfg);
    ASSERT_TRUE(s);
    const Stop f = s->resume(Motion::Continue);
    ASSERT_EQ(f.reason, StopReason::Finding) << f.message;
    EXPECT_TRUE(contains(f.message, "RAW hazard")) << f.message;
    EXPECT_TRUE(contains(f.message, "thread (1,0,0) reads")) << f.message;
    EXPECT_EQ(f.warp, 0u);
    EXPECT_EQ(f.lane, 1); // the thread that read
    // The transcript names the files as the stops do, without their folder.
    const std::string text = DebugConsole(*s).stopText(f);
    EXPECT_TRUE(contains(text, fmt::format("writes at kernel.cu:{} ", lineOf(kRacy, "// write")))) << text;
    EXPECT_FALSE(contains(text, "/kernel.cu")) << text;
    EXPECT_EQ(s->focus().warp, f.warp);
    EXPECT_EQ(s->focus().lane, std::uint32_t(f.lane));
    // The launch goes on after a finding, to its end.
    Stop next = s->resume(Motion::Continue);
    while (next.reason == StopReason::Finding)
        next = s->resume(Motion::Continue);
    EXPECT_EQ(next.reason, StopReason::Finished);
    // Without the check the same kernel runs through.
    auto plain = debugSession(kRacy, "racy", {typed("out", std::vector<int>(64, 0))}, {bufArg(0)},
                              config({1, 1, 1}, {64, 1, 1}));
    EXPECT_EQ(plain->resume(Motion::Continue).reason, StopReason::Finished);
}

} // namespace
