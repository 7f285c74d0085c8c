// Device printf output at a stop: the blocks that ran, then the block under way as far
// as it has come, each thread's line where the host says it is; the same after going
// back (from a checkpoint too) and through the `output` command.
#include "DebugTestSupport.hpp"

#include <gtest/gtest.h>

namespace {

using namespace kwtest;
using namespace kw::debug;

const std::string kPrint = R"(
#include <cstdio>
__global__ void hello(int *out)
{
    int t = threadIdx.x;
    printf("block %d thread %d\n", blockIdx.x, t); // print
    out[blockIdx.x * blockDim.x + t] = t; // store
}
)";

constexpr std::uint32_t kThreads = 40;

std::unique_ptr<DebugSession> printSession(std::uint64_t spacing)
{
    auto s = debugSession(kPrint, "hello", {typed("out", std::vector<int>(3 * kThreads, 0))}, {bufArg(0)},
                          config({3, 1, 1}, {kThreads, 1, 1}));
    if (s)
        s->setCheckpointSpacing(spacing);
    return s;
}

// What threads [0, threads) of block b print, in the order the simulator runs them
// (warp after warp, lanes in order).
std::string printed(std::uint32_t block, std::uint32_t threads)
{
    std::string out;
    for (std::uint32_t t = 0; t < threads; ++t)
        out += fmt::format("block {} thread {}\n", block, t);
    return out;
}

class DebugOutput : public ::testing::TestWithParam<std::uint64_t> { };

TEST_P(DebugOutput, AtAStopShowsWhatWasPrintedSoFar)
{
    KW_REQUIRE_NVRTC();
    auto s = printSession(GetParam());
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->output().empty());
    BreakpointSpec b{"", std::uint32_t(lineOf(kPrint, "// print"))};
    b.condition = "blockIdx.x == 1 && warp == 1";
    s->addBreakpoint(b);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint) << hit.message;
    ASSERT_EQ(hit.block, 1u);
    auto check = [&](const char* when) {
        const auto out = s->output();
        ASSERT_EQ(out.size(), 2u) << when;
        EXPECT_EQ(out[0].block, 0u);
        EXPECT_TRUE(out[0].complete);
        EXPECT_EQ(out[0].text, printed(0, kThreads)) << when;
        EXPECT_EQ(out[1].block, 1u);
        EXPECT_FALSE(out[1].complete);
        EXPECT_EQ(out[1].text, printed(1, 32)) << when; // warp 0 has printed, warp 1 stands before it
        DebugConsole c(*s);
        EXPECT_EQ(c.execute("output"), "block 0:\n" + printed(0, kThreads) + "block 1 (under way):\n" + printed(1, 32))
            << when;
    };
    check("forwards");
    const std::uint64_t there = s->position();

    s->removeBreakpoint(1);
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    const auto all = s->output();
    ASSERT_EQ(all.size(), 3u);
    for (std::uint32_t k = 0; k < 3; ++k)
        EXPECT_EQ(all[k].text, printed(k, kThreads));

    if (GetParam() < 100)
        EXPECT_GT(s->checkpoints(), 0u); // going back starts from one: the output before it comes from it
    s->goTo(there);                      // run again, from a checkpoint as block 1 began when they are close together
    check("back");
    s->goTo(0);
    EXPECT_EQ(DebugConsole(*s).execute("output"), "no device output yet\n");
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, DebugOutput, ::testing::Values(std::uint64_t(1) << 20, std::uint64_t(20)));

} // namespace
