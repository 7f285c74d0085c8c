// A launch run in slices gives what a whole run gives: one instruction at a time, to
// each barrier, one warp alone, and paused by an observer at a line.
#include "MixedKernel.hpp"
#include "SimBenchKernels.hpp"
#include "SimTestSupport.hpp"
#include "SteppedLaunch.hpp"
#include "sim/HostFma.hpp"
#include "sim/Warp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace {

using namespace kwtest;
using namespace kw::sim;

struct Outcome {
    std::vector<int> out;
    int sum = 0;
    std::string printf;
    std::uint64_t instructions = 0;
};

Outcome wholeRun(const kw::KernelImage& img)
{
    MixedBuffers m;
    kw::SimBackend sim;
    sim.setThreads(2);
    const kw::LaunchReport r = sim.launch(img, m.buffers, m.args, m.config);
    EXPECT_TRUE(r.ok) << faultMessage(r.fault);
    return {values<int>(m.buffers[1]), values<int>(m.buffers[2])[0], r.printfOutput, 0};
}

// Runs the mixed kernel with `step` called until the launch is finished; `step` advances it.
Outcome steppedRun(const kw::KernelImage& img, const std::function<LaunchStatus(LaunchRun&)>& step,
                   std::uint64_t* calls = nullptr)
{
    MixedBuffers m;
    SteppedLaunch s(img, m.buffers, m.args, m.config);
    std::uint64_t n = 0;
    for (LaunchStatus st = LaunchStatus::Paused; st != LaunchStatus::Finished; ++n) {
        st = step(*s.run);
        EXPECT_NE(st, LaunchStatus::Stopped);
        if (st == LaunchStatus::Stopped || n > 10'000'000)
            break;
    }
    if (calls)
        *calls = n;
    GridRun grid = s.run->finish(1);
    EXPECT_FALSE(s.launch->state().fault) << s.launch->state().fault->message;
    return {values<int>(m.buffers[1]), values<int>(m.buffers[2])[0], grid.printf, grid.instructions};
}

void expectSame(const Outcome& whole, const Outcome& stepped)
{
    EXPECT_EQ(stepped.out, whole.out);
    EXPECT_EQ(stepped.sum, whole.sum);
    EXPECT_EQ(stepped.printf, whole.printf);
}

class SimStepping : public ::testing::Test {
protected:
    void SetUp() override
    {
        KW_REQUIRE_NVRTC();
        img = compile(kMixedSource, "mixed");
        ASSERT_TRUE(img);
        whole = wholeRun(*img);
        // The whole run is right, so equal runs are right too.
        ASSERT_EQ(whole.out.size(), std::size_t(kMixedN));
        EXPECT_EQ(whole.out[0], 8 * 2); // thread 0 doubles in[1]
        EXPECT_EQ(whole.out[1], 9 + 1);
        EXPECT_TRUE(contains(whole.printf, "block 2 v="));
    }
    std::optional<kw::KernelImage> img;
    Outcome whole;
};

TEST_F(SimStepping, OneInstructionAtATimeGivesTheWholeRunsOutputs)
{
    std::uint64_t calls = 0;
    const Outcome stepped = steppedRun(
        *img, [](LaunchRun& r) { return r.advance({1}); }, &calls);
    expectSame(whole, stepped);
    ASSERT_GT(stepped.instructions, 300u);
    EXPECT_GE(calls, stepped.instructions); // no call ran more than one instruction
}

TEST_F(SimStepping, ToEachBarrierGivesTheWholeRunsOutputs)
{
    int barriers = 0;
    const Outcome stepped = steppedRun(*img, [&](LaunchRun& r) {
        const LaunchStatus st = r.advance({~std::uint64_t(0), true});
        barriers += st == LaunchStatus::Barrier;
        return st;
    });
    expectSame(whole, stepped);
    EXPECT_EQ(barriers, 6); // two in each of three blocks
}

TEST_F(SimStepping, OneWarpAloneToItsBarrierThenTheBlock)
{
    const Outcome stepped = steppedRun(*img, [](LaunchRun& r) {
        if (r.stepper() && r.block() < 3 && r.stepper()->warps()[1].mask) {
            const BlockStatus st = r.stepper()->advanceWarp(1, 7);
            EXPECT_TRUE(st == BlockStatus::Paused || st == BlockStatus::WarpWaits);
        }
        return r.advance({5});
    });
    expectSame(whole, stepped);
}

// Pauses the runner before every instruction of warp 0 on one line, as a breakpoint would.
class LineBreak : public Observer {
public:
    LineBreak(BlockRunner& runner, std::uint32_t line)
        : runner_(runner)
        , line_(line)
    {
    }
    std::uint8_t wants() const override { return Issues; }
    void issue(const Warp& w, const Instr& in, std::uint32_t) override
    {
        ++issued;
        if (w.warpId == 0 && in.line == line_) {
            ++hits;
            runner_.requestPause();
        }
    }
    std::uint64_t issued = 0, hits = 0;

private:
    BlockRunner& runner_;
    std::uint32_t line_;
};

TEST_F(SimStepping, AnObserverPausesAtALineAndEveryInstructionIsAnnouncedOnce)
{
    MixedBuffers m;
    SteppedLaunch s(*img, m.buffers, m.args, m.config);
    LineBreak stop(s.run->makeStepper(), std::uint32_t(lineOf(kMixedSource, "// call site")));
    s.run->stepper()->observe(stop);
    std::uint64_t pauses = 0;
    for (LaunchStatus st; (st = s.run->advance()) != LaunchStatus::Finished;) {
        ASSERT_NE(st, LaunchStatus::Stopped);
        pauses += st == LaunchStatus::Paused;
    }
    GridRun grid = s.run->finish(1);
    expectSame(whole, {values<int>(m.buffers[1]), values<int>(m.buffers[2])[0], grid.printf, 0});
    EXPECT_GT(stop.hits, 0u);
    EXPECT_EQ(pauses, stop.hits);
    EXPECT_EQ(stop.issued, grid.instructions);
}

TEST_F(SimStepping, ABlockSteppedFirstThenTheRestOverWorkers)
{
    MixedBuffers m;
    SteppedLaunch s(*img, m.buffers, m.args, m.config);
    for (int i = 0; i < 20; ++i) // 60 instructions: block 0 is under way
        ASSERT_EQ(s.run->advance({3}), LaunchStatus::Paused);
    EXPECT_EQ(s.run->block(), 0u);
    GridRun grid = s.run->finish(2);
    expectSame(whole, {values<int>(m.buffers[1]), values<int>(m.buffers[2])[0], grid.printf, 0});
}

// With nothing observing it, the tiled product's inner loop runs each pair of loads and their
// fma as one step, and straight lines without the scheduler's tests between instructions;
// a budget that ends inside one runs it one by one. Slices of every length below give the
// whole run's product and instruction count.
TEST(SimSteppingFused, SlicesOfEveryLengthGiveTheTiledProductAndItsInstructionCount)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kTiledMatmulSource, "matmul");
    ASSERT_TRUE(img);
    const int n = 32;
    std::vector<float> A(n * n), B(n * n), expected(n * n);
    for (int i = 0; i < n * n; ++i) {
        A[i] = float(i % 7) - 3;
        B[i] = float(i % 5) * 0.25f;
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            float s = 0;
            for (int k = 0; k < n; ++k)
                s = kw::sim::hostFma(A[r * n + k], B[k * n + c], s);
            expected[r * n + c] = s;
        }
    auto stepped = [&](std::uint64_t slice, std::uint64_t& instructions) {
        std::vector<kw::BufferArg> bufs{buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(n * n))};
        SteppedLaunch s(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({2, 2}, {16, 16}));
        for (LaunchStatus st = LaunchStatus::Paused; st != LaunchStatus::Finished;) {
            st = s.run->advance({slice});
            if (st == LaunchStatus::Stopped) {
                ADD_FAILURE() << "stopped";
                break;
            }
        }
        instructions = s.run->finish(1).instructions;
        return values<float>(bufs[2]);
    };
    std::uint64_t whole = 0;
    EXPECT_EQ(stepped(~std::uint64_t(0), whole), expected);
    EXPECT_GT(whole, 4u * 8 * 2 * 48); // blocks, warps, tiles, the inner loop's instructions
    for (std::uint64_t slice : {1u, 2u, 3u, 4u, 5u, 7u, 47u, 1000u}) {
        SCOPED_TRACE("slices of " + std::to_string(slice));
        std::uint64_t count = 0;
        EXPECT_EQ(stepped(slice, count), expected);
        EXPECT_EQ(count, whole);
    }
}

TEST(SimSteppingFault, AFaultStopsTheSteppedLaunchAndFinishReturns)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void oob(int* p) { p[threadIdx.x * 1000] = 1; })", "oob");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("p", std::vector<int>(4, 0))};
    SteppedLaunch s(*img, bufs, {bufArg(0)}, config({2}, {32}));
    LaunchStatus st = LaunchStatus::Paused;
    for (int i = 0; i < 1000 && st == LaunchStatus::Paused; ++i)
        st = s.run->advance({1});
    EXPECT_EQ(st, LaunchStatus::Stopped);
    s.run->finish(1);
    ASSERT_TRUE(s.launch->state().fault);
    EXPECT_EQ(s.launch->state().fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_EQ(s.run->advance({1}), LaunchStatus::Stopped);
}

} // namespace
