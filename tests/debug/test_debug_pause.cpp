// A pause interrupts every motion that runs long, forwards and backwards: `next` over a
// long loop, `finish` out of a device function that loops, `barrier` while a warp loops
// before it, `reconverge` across a long divergent branch, `reverse-continue` searching a
// long run again, `reverse-step` and `reverse-stepi` running a long block again. Each stops promptly with reason Paused
// at a state that can be read, and the same motion asked again goes on as if it had never stopped: the launch ends with
// the buffers an uninterrupted run gives, and the motion ends where it would have.
#include "DebugTestSupport.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

using namespace kwtest;
using namespace kw::debug;
using Clock = std::chrono::steady_clock;

const std::string kLong = R"(__device__ __noinline__ int churn(int s, int n)
{
    for (int i = 0; i < n; ++i)
        s = s * 3 + i; // churn
    return s;
}
__global__ void spin(int *out, int n)
{
    int s = threadIdx.x; // first
    s = churn(s, n); // call
    if (threadIdx.x % 2)
        for (int i = 0; i < n; ++i)
            s = s * 7 + i; // odd
    __syncthreads(); // barrier
    out[threadIdx.x] = s; // store
}
)";

constexpr int kThreads = 64;

std::unique_ptr<DebugSession> spinSession(int n)
{
    return debugSession(kLong, "spin", {typed("out", std::vector<int>(kThreads, 0))}, {bufArg(0), scalar<int>(n)},
                        config({1, 1, 1}, {kThreads, 1, 1}, 0));
}

std::vector<int> outputOf(const DebugSession& s)
{
    const auto& b = s.buffers().at(0).data;
    std::vector<int> v(b.count());
    std::memcpy(v.data(), b.data(), v.size() * sizeof(int));
    return v;
}

// The loop's length: long enough that a motion over it runs for seconds on a loaded
// machine, short enough that the whole launch ends within the test's time.
constexpr int kIterations = 1000000;

// `motion` from the stop at `line`, interrupted after `after`: the stop must come within
// seconds, with reason Paused, and show the focused warp. Soon after the start: an
// unobserved warp runs the loop in tens of milliseconds.
Stop pauseDuring(DebugSession& s, Motion motion, std::chrono::milliseconds after = std::chrono::milliseconds(10))
{
    std::thread pauser([&] {
        std::this_thread::sleep_for(after);
        s.interrupt();
    });
    const auto t0 = Clock::now();
    const Stop stop = s.resume(motion);
    pauser.join();
    s.takeInterrupt(); // asked after the motion ended: not the next one's
    EXPECT_LT(Clock::now() - t0, after + std::chrono::seconds(3)) << "the pause was not prompt";
    return stop;
}

// To the breakpoint at `marker`'s line, the breakpoint then removed.
void runToLine(DebugSession& s, const std::string& marker)
{
    const BreakpointInfo b = s.addBreakpoint({"", std::uint32_t(lineOf(kLong, marker))});
    ASSERT_EQ(s.resume(Motion::Continue).reason, StopReason::Breakpoint) << marker;
    s.removeBreakpoint(b.id);
}

class DebugPause : public ::testing::Test {
protected:
    void SetUp() override
    {
        KW_REQUIRE_NVRTC();
        auto plain = spinSession(kIterations);
        ASSERT_TRUE(plain);
        ASSERT_EQ(plain->resume(Motion::Continue).reason, StopReason::Finished);
        expected_ = outputOf(*plain);
        finishedAt_ = plain->position();
    }
    std::vector<int> expected_;
    std::uint64_t finishedAt_ = 0;

    // The launch run on to its end from where `s` stands gives the uninterrupted result.
    void endsAsUninterrupted(DebugSession& s)
    {
        ASSERT_EQ(s.resume(Motion::Continue).reason, StopReason::Finished);
        EXPECT_EQ(s.position(), finishedAt_);
        EXPECT_EQ(outputOf(s), expected_);
    }
};

// The motion arrives after `pauses` interruptions where it arrives uninterrupted.
void sameArrival(DebugSession& paused, DebugSession& plain, Motion motion)
{
    const Stop whole = plain.resume(motion);
    Stop s;
    int pauses = 0;
    for (;;) {
        s = pauseDuring(paused, motion);
        if (s.reason != StopReason::Paused)
            break;
        ++pauses;
        EXPECT_EQ(paused.focus().warp, plain.focus().warp) << "a paused warp motion stays on its warp";
        EXPECT_FALSE(paused.warp().where.instruction.empty()) << "the paused state reads";
        ASSERT_LT(pauses, 5000);
    }
    EXPECT_GE(pauses, 1) << "the motion ended before any pause: lengthen the loop";
    EXPECT_EQ(s.reason, whole.reason);
    EXPECT_EQ(s.position, whole.position);
    EXPECT_EQ(blockState(paused), blockState(plain));
}

TEST_F(DebugPause, NextOverALongLoopPausesAndGoesOn)
{
    auto s = spinSession(kIterations);
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(s && plain);
    runToLine(*s, "// call");
    runToLine(*plain, "// call");
    // The first pause: prompt, reason Paused, inside the loop of the call `next` runs
    // over, its state readable per lane.
    const Stop first = pauseDuring(*s, Motion::Next);
    ASSERT_EQ(first.reason, StopReason::Paused);
    EXPECT_EQ(s->focus().warp, 0u);
    EXPECT_GE(s->warp().where.line, std::uint32_t(lineOf(kLong, "// churn")) - 1); // the loop's lines
    EXPECT_LE(s->warp().where.line, std::uint32_t(lineOf(kLong, "// churn")));
    EXPECT_EQ(s->lanes("threadIdx.x").at(3).number, 3);
    EXPECT_GT(first.position, plain->position());
    EXPECT_LT(first.position, finishedAt_);
    // Asked again, the `next` goes on (paused as often as it takes) and arrives where an
    // uninterrupted `next` arrives: the line after the call, not the loop's next line.
    sameArrival(*s, *plain, Motion::Next);
    EXPECT_EQ(s->warp().where.line, std::uint32_t(lineOf(kLong, "if (threadIdx.x % 2)")));
    endsAsUninterrupted(*s);
}

TEST_F(DebugPause, FinishOutOfALongDeviceFunctionPausesAndGoesOn)
{
    auto s = spinSession(kIterations);
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(s && plain);
    runToLine(*s, "// call");
    runToLine(*plain, "// call");
    s->resume(Motion::Step); // into churn, before its loop
    plain->resume(Motion::Step);
    ASSERT_EQ(s->backtrace().size(), 2u);
    sameArrival(*s, *plain, Motion::Finish);
    endsAsUninterrupted(*s);
}

TEST_F(DebugPause, ReconvergePausesAndGoesOn)
{
    auto s = spinSession(kIterations);
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(s && plain);
    runToLine(*s, "if (threadIdx.x % 2)");
    runToLine(*plain, "if (threadIdx.x % 2)");
    sameArrival(*s, *plain, Motion::Reconverge);
    endsAsUninterrupted(*s);
}

// Warp 0 at the `if`: to the barrier's release, every warp's long branch runs first.
TEST_F(DebugPause, BarrierPausesAndGoesOn)
{
    auto s = spinSession(kIterations);
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(s && plain);
    runToLine(*s, "if (threadIdx.x % 2)");
    runToLine(*plain, "if (threadIdx.x % 2)");
    sameArrival(*s, *plain, Motion::Barrier);
    endsAsUninterrupted(*s);
}

// A paused motion forgotten: another motion (or the same one elsewhere) starts afresh.
TEST_F(DebugPause, AnotherMotionAfterAPauseStartsAfresh)
{
    auto s = spinSession(kIterations);
    ASSERT_TRUE(s);
    runToLine(*s, "// churn");
    ASSERT_EQ(pauseDuring(*s, Motion::Continue).reason, StopReason::Paused);
    // A step from the pause goes one line, not on to wherever the continue would have stopped.
    const std::uint32_t line = s->warp().where.line;
    const Stop step = s->resume(Motion::Step);
    EXPECT_EQ(step.reason, StopReason::Step);
    EXPECT_NE(s->warp().where.line, line);
    endsAsUninterrupted(*s);
}

TEST_F(DebugPause, ReverseContinueSearchingALongRunPausesAndGoesOn)
{
    auto s = spinSession(kIterations);
    ASSERT_TRUE(s);
    s->setCheckpointSpacing(std::uint64_t(1) << 40); // no checkpoint inside: one long search
    s->addBreakpoint({"", std::uint32_t(lineOf(kLong, "// first"))});
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    const std::uint64_t hit = s->position();
    const BreakpointInfo store = s->addBreakpoint({"", std::uint32_t(lineOf(kLong, "// store"))});
    while (s->stop().breakpoint != store.id)
        ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Breakpoint);
    s->removeBreakpoint(store.id);
    const std::uint64_t here = s->position();
    // The hits of `first` a forward run makes, by position.
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(plain);
    plain->addBreakpoint({"", std::uint32_t(lineOf(kLong, "// first"))});
    std::vector<std::uint64_t> hits;
    while (plain->resume(Motion::Continue).reason == StopReason::Breakpoint)
        if (plain->position() < here)
            hits.push_back(plain->position());
    ASSERT_FALSE(hits.empty());

    const Stop paused = pauseDuring(*s, Motion::ReverseContinue);
    ASSERT_EQ(paused.reason, StopReason::Paused);
    EXPECT_GT(paused.position, hit);
    EXPECT_LT(paused.position, here);
    EXPECT_TRUE(contains(paused.message, "was not looked at")) << paused.message;
    EXPECT_FALSE(s->warp().where.instruction.empty());
    // The hits counted are those before where it stands, as going back there leaves them.
    const auto before = std::count_if(hits.begin(), hits.end(), [&](std::uint64_t p) { return p < paused.position; });
    EXPECT_EQ(s->breakpoints().front().hits, std::uint64_t(before));
    // Asked again, the search goes on through the pauses and ends at the last hit before
    // where it began, as an uninterrupted reverse-continue does.
    Stop back = paused;
    for (int pauses = 0; back.reason == StopReason::Paused; ++pauses) {
        ASSERT_LT(pauses, 5000);
        back = pauseDuring(*s, Motion::ReverseContinue);
    }
    EXPECT_EQ(back.reason, StopReason::Breakpoint);
    EXPECT_EQ(back.position, hits.back());
    EXPECT_EQ(s->breakpoints().front().hits, hits.size()) << "the hits are those the forward run counted to here";
    s->removeBreakpoint(s->breakpoints().front().id);
    endsAsUninterrupted(*s);
}

// reverse-step and reverse-stepi from the store run the block again from its start, over
// both long loops: paused, each goes on when asked again and arrives where it arrives
// uninterrupted, with the same state.
TEST_F(DebugPause, ReverseStepRunningALongBlockAgainPausesAndGoesOn)
{
    for (const Motion motion : {Motion::ReverseStep, Motion::ReverseStepInstruction}) {
        auto s = spinSession(kIterations);
        auto plain = spinSession(kIterations);
        ASSERT_TRUE(s && plain);
        s->setCheckpointSpacing(std::uint64_t(1) << 40);
        plain->setCheckpointSpacing(std::uint64_t(1) << 40);
        runToLine(*s, "// store");
        runToLine(*plain, "// store");
        sameArrival(*s, *plain, motion);
        endsAsUninterrupted(*s);
    }
}

// A paused reverse motion forgotten: another motion starts afresh from the pause.
TEST_F(DebugPause, AnotherMotionAfterAPausedReverseStepStartsAfresh)
{
    auto s = spinSession(kIterations);
    ASSERT_TRUE(s);
    s->setCheckpointSpacing(std::uint64_t(1) << 40);
    runToLine(*s, "// store");
    ASSERT_EQ(pauseDuring(*s, Motion::ReverseStep).reason, StopReason::Paused);
    const std::uint64_t at = s->position();
    auto plain = spinSession(kIterations);
    ASSERT_TRUE(plain);
    plain->setCheckpointSpacing(std::uint64_t(1) << 40);
    runToLine(*plain, "// store");
    const std::uint64_t back = plain->resume(Motion::ReverseStep).position;
    const Stop step = s->resume(Motion::StepInstruction);
    EXPECT_EQ(step.reason, StopReason::Step);
    EXPECT_GT(step.position, at);
    EXPECT_NE(step.position, back) << "stepi went on with the reverse-step";
    EXPECT_EQ(s->focus().warp, 0u);
    endsAsUninterrupted(*s);
}

} // namespace
