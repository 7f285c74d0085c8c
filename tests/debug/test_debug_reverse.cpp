// Reverse execution runs the launch again from its start: the state it reaches at an
// earlier position is the state the forward run had there, warp by warp, register by
// register, shared memory and buffers alike.
#include "DebugTestSupport.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace {

using namespace kwtest;
using namespace kw::debug;

const std::string kReduce = R"(
__global__ void block_sum(const float *in, float *block_sums, int n)
{
    extern __shared__ float partial[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[tid] = (i < n) ? in[i] : 0.0f;
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

// Checkpoints every `spacing` instructions: the launch is run again from the nearest.
std::unique_ptr<DebugSession> reduceSession(std::uint64_t spacing = std::uint64_t(1) << 20)
{
    std::vector<float> in(128);
    std::iota(in.begin(), in.end(), 0.0f);
    auto s = debugSession(kReduce, "block_sum", {typed("in", in), typed("block_sums", std::vector<float>(2, 0.0f))},
                          {bufArg(0), bufArg(1), scalar<int>(128)}, config({2, 1, 1}, {64, 1, 1}, 64 * 4));
    if (s)
        s->setCheckpointSpacing(spacing);
    return s;
}

struct Seen {
    std::uint64_t position;
    std::string state;
};

class DebugReverse : public ::testing::TestWithParam<std::uint64_t> {
protected:
    std::unique_ptr<DebugSession> session() { return reduceSession(GetParam()); }
    // From the first stop at `// add`, `n` motions forward: each stop's position and
    // block state, that stop first.
    static std::vector<Seen> forwardFromAdd(DebugSession& s, Motion motion, int n)
    {
        s.addBreakpoint({"", std::uint32_t(lineOf(kReduce, "// add"))});
        EXPECT_EQ(s.resume(Motion::Continue).reason, StopReason::Breakpoint);
        s.removeBreakpoint(1);
        std::vector<Seen> steps{{s.position(), blockState(s)}};
        for (int i = 0; i < n; ++i) {
            EXPECT_EQ(s.resume(motion).reason, StopReason::Step);
            steps.push_back({s.position(), blockState(s)});
        }
        return steps;
    }
};

TEST_P(DebugReverse, GoingBackToAnyEarlierStopGivesTheForwardRunsState)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    std::vector<Seen> seen{{s->position(), blockState(*s)}};
    // Instructions, lines, barriers and a block change: stops of every kind.
    const Motion motions[] = {Motion::StepInstruction, Motion::Step,   Motion::Barrier,
                              Motion::StepInstruction, Motion::Step,   Motion::Next,
                              Motion::Barrier,         Motion::Barrier};
    for (const Motion m : motions) {
        s->resume(m);
        seen.push_back({s->position(), blockState(*s)});
    }
    s->focusWarp(1);
    for (int i = 0; i < 5; ++i) {
        s->resume(Motion::Step);
        seen.push_back({s->position(), blockState(*s)});
    }
    s->focusBlock(1);
    for (int i = 0; i < 3; ++i) {
        s->resume(Motion::Barrier);
        seen.push_back({s->position(), blockState(*s)});
    }
    // Backwards in order, then a jump forward again.
    for (auto it = seen.rbegin(); it != seen.rend(); ++it) {
        const Stop back = s->goTo(it->position);
        EXPECT_EQ(back.position, it->position);
        s->focusWarp(0);
        s->focusLane(0);
        EXPECT_EQ(blockState(*s), it->state) << "at position " << it->position;
    }
    s->goTo(seen[seen.size() - 2].position);
    EXPECT_EQ(blockState(*s), seen[seen.size() - 2].state);
    // From a position reached backwards the launch goes on as it went forwards.
    s->resume(Motion::Barrier);
    EXPECT_EQ(blockState(*s), seen.back().state);
}

TEST_P(DebugReverse, ReverseStepReturnsToTheLineTheLastStepLeft)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    const std::vector<Seen> steps = forwardFromAdd(*s, Motion::Step, 4);
    ASSERT_FALSE(::testing::Test::HasFailure());
    for (int i = 3; i >= 0; --i) {
        const Stop back = s->resume(Motion::ReverseStep);
        EXPECT_EQ(back.position, steps[std::size_t(i)].position) << i;
        EXPECT_EQ(blockState(*s), steps[std::size_t(i)].state) << i;
    }
}

// reverse-stepi goes back one instruction of the focused warp at a time: stepped forward
// N instructions (through the barrier, where the other warp runs in between) and back N,
// every stop on the way back is the forward one, every register and shared word alike.
TEST_P(DebugReverse, ReverseStepiRetracesEachInstructionOfTheWarp)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    const std::vector<Seen> steps = forwardFromAdd(*s, Motion::StepInstruction, 24);
    ASSERT_FALSE(::testing::Test::HasFailure());
    for (int i = 23; i >= 0; --i) {
        const Stop back = s->resume(Motion::ReverseStepInstruction);
        EXPECT_EQ(back.position, steps[std::size_t(i)].position) << i;
        EXPECT_EQ(s->focus().warp, 0u);
        EXPECT_EQ(blockState(*s), steps[std::size_t(i)].state) << i;
    }
    // And forwards again from there, as before.
    s->resume(Motion::StepInstruction);
    EXPECT_EQ(blockState(*s), steps[1].state);
}

// Before the warp's first instruction in its block there is none to go back to: refused,
// and the launch stays where it was.
TEST_P(DebugReverse, ReverseStepiBeforeTheWarpsFirstInstructionIsRefused)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    s->focusWarp(1);
    const std::string before = blockState(*s);
    EXPECT_THROW(s->resume(Motion::ReverseStepInstruction), kw::Error);
    EXPECT_EQ(blockState(*s), before);
    EXPECT_EQ(s->focus().warp, 1u);
}

TEST_P(DebugReverse, ReverseContinueReturnsToTheLastBreakpointOrWatchHit)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    s->addBreakpoint({"", std::uint32_t(lineOf(kReduce, "// add"))});
    std::vector<Seen> hits;
    for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
        hits.push_back({s->position(), blockState(*s)});
    }
    for (int i = 2; i >= 0; --i) {
        const Stop back = s->resume(Motion::ReverseContinue);
        EXPECT_EQ(back.reason, StopReason::Breakpoint);
        EXPECT_EQ(back.position, hits[std::size_t(i)].position);
        EXPECT_EQ(blockState(*s), hits[std::size_t(i)].state) << i;
    }
    // Before the first hit there is none: the launch's start.
    EXPECT_EQ(s->resume(Motion::ReverseContinue).position, 0u);

    auto w = session();
    w->addWatch({"", 0, kw::DType::F32});
    std::vector<Stop> writes;
    for (int i = 0; i < 4; ++i)
        writes.push_back(w->resume(Motion::Continue));
    const Stop back = w->resume(Motion::ReverseContinue);
    ASSERT_EQ(back.reason, StopReason::Watch);
    EXPECT_EQ(back.position, writes[2].position);
    ASSERT_TRUE(back.watch);
    EXPECT_EQ(back.watch->newValue, writes[2].watch->newValue);
    EXPECT_EQ(w->shared(kw::DType::F32, 0, 1)[0].value, writes[2].watch->newValue);
}

// Going back undoes the hits counted since: reverse-continue, then continue again, shows
// the hit numbers of the forward run at every stop (breakpoints with `ignore`, and watches).
TEST_P(DebugReverse, GoingBackUndoesTheHitCounts)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    BreakpointSpec add{"", std::uint32_t(lineOf(kReduce, "// add"))};
    add.ignore = 1;
    s->addBreakpoint(add);
    s->addWatch({"", 0, kw::DType::F32});
    struct Count {
        std::uint64_t position, breakpoint, watch;
        bool operator==(const Count&) const = default;
    };
    auto count = [&] { return Count{s->position(), s->breakpoints().front().hits, s->watches().front().hits}; };
    std::vector<Count> forward;
    for (int i = 0; i < 8; ++i) {
        ASSERT_NE(s->resume(Motion::Continue).reason, StopReason::Finished);
        forward.push_back(count());
    }
    for (int i = 6; i >= 3; --i) {
        s->resume(Motion::ReverseContinue);
        const Count back = count();
        EXPECT_EQ(back.position, forward[std::size_t(i)].position) << i;
        EXPECT_EQ(back.breakpoint, forward[std::size_t(i)].breakpoint) << i;
        EXPECT_EQ(back.watch, forward[std::size_t(i)].watch) << i;
    }
    for (int i = 4; i < 8; ++i) {
        s->resume(Motion::Continue);
        const Count again = count();
        EXPECT_EQ(again.position, forward[std::size_t(i)].position) << i;
        EXPECT_EQ(again.breakpoint, forward[std::size_t(i)].breakpoint) << i;
        EXPECT_EQ(again.watch, forward[std::size_t(i)].watch) << i;
    }
    // To the launch's start: nothing counted yet.
    s->goTo(0);
    EXPECT_EQ(s->breakpoints().front().hits, 0u);
    EXPECT_EQ(s->watches().front().hits, 0u);
}

TEST_P(DebugReverse, FromTheEndAndFromAFault)
{
    KW_REQUIRE_NVRTC();
    auto s = session();
    ASSERT_TRUE(s);
    s->addBreakpoint({"", std::uint32_t(lineOf(kReduce, "// add"))});
    Stop last;
    for (Stop st = s->resume(Motion::Continue); st.reason == StopReason::Breakpoint; st = s->resume(Motion::Continue))
        last = st;
    ASSERT_TRUE(s->ended());
    const Stop back = s->resume(Motion::ReverseContinue);
    EXPECT_EQ(back.position, last.position);
    EXPECT_EQ(back.block, 1u);
    EXPECT_FALSE(s->ended());
}

// From the start, and from the checkpoint of block 1 (the launch's second block).
INSTANTIATE_TEST_SUITE_P(Checkpoints, DebugReverse, ::testing::Values(std::uint64_t(1) << 20, std::uint64_t(50)));

TEST(DebugReverseCheckpoints, AreTakenAsBlocksBeginAndUsed)
{
    KW_REQUIRE_NVRTC();
    auto s = reduceSession(50);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->checkpoints(), 0u);
    s->resume(Motion::Continue);
    EXPECT_EQ(s->checkpoints(), 1u); // block 1's begin; block 0's is the start
    // A stop in block 1 reached backwards: from the checkpoint, the same state.
    auto fresh = reduceSession();
    fresh->focusBlock(1);
    fresh->resume(Motion::Barrier);
    const std::string forward = blockState(*fresh);
    s->goTo(fresh->position());
    EXPECT_EQ(blockState(*s), forward);
}

} // namespace
