// Device printf output at a stop: the blocks that ran, then the block under way as far
// as it has come, each thread's line where the host says it is; the same after going
// back (from a checkpoint too) and through the `output` command.
#include "DebugTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"

#include <map>
#include <set>

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

// The `output` command's form of it: each line under its block, with its thread.
std::string listed(std::uint32_t block, std::uint32_t threads)
{
    std::string out;
    for (std::uint32_t t = 0; t < threads; ++t)
        out += fmt::format("thread {}: block {} thread {}\n", t, block, t);
    return out;
}

// Each line is attributed to the thread whose text it is.
void expectOwnThreads(const DeviceOutput& o, std::uint32_t threads)
{
    ASSERT_EQ(o.lines.size(), threads);
    for (std::uint32_t t = 0; t < threads; ++t) {
        EXPECT_EQ(o.lines[t].thread, t);
        EXPECT_EQ(o.lines[t].text, fmt::format("block {} thread {}", o.block, t));
    }
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
        expectOwnThreads(out[0], kThreads);
        expectOwnThreads(out[1], 32);
        DebugConsole c(*s);
        EXPECT_EQ(c.execute("output"), "block 0:\n" + listed(0, kThreads) + "block 1 (under way):\n" + listed(1, 32))
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

// A call that prints two lines gives both to its thread; a call's text without a
// newline is a line of its own; odd lanes print first where the branch sends them first.
TEST(DebugOutputThreads, EachLineNamesTheThreadThatPrintedIt)
{
    KW_REQUIRE_NVRTC();
    const std::string source = R"(
#include <cstdio>
__global__ void two(int *out)
{
    int t = threadIdx.x;
    if (t % 2)
        printf("odd %d\nstill %d\n", t, t);
    else
        printf("even %d", t);
    out[t] = t;
}
)";
    auto s = debugSession(source, "two", {typed("out", std::vector<int>(8, 0))}, {bufArg(0)},
                          config({1, 1, 1}, {8, 1, 1}));
    ASSERT_TRUE(s);
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    const auto out = s->output();
    ASSERT_EQ(out.size(), 1u);
    std::map<std::string, std::uint32_t> owner;
    for (const PrintedLine& l : out[0].lines)
        owner[l.text] = l.thread;
    ASSERT_EQ(out[0].lines.size(), 4u + 2 * 4u) << out[0].text;
    for (std::uint32_t t = 0; t < 8; ++t) {
        if (t % 2) {
            EXPECT_EQ(owner.at(fmt::format("odd {}", t)), t);
            EXPECT_EQ(owner.at(fmt::format("still {}", t)), t);
        } else
            EXPECT_EQ(owner.at(fmt::format("even {}", t)), t);
    }
}

// A document's kernel is compiled without the run's printf tags: the simulator names the
// thread, so no tag reaches the text, and the 3-D block's 60 threads each print once.
TEST(DebugOutputThreads, ADocumentsOutputCarriesNoTags)
{
    KW_REQUIRE_NVRTC();
    const kw::Document doc
        = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb", kw::Trust::Trusted);
    kw::Compiler compiler;
    auto s = DebugSession::fromDocument(doc, compiler);
    ASSERT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    const auto out = s->output();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].text.find('\x1e'), std::string::npos);
    ASSERT_EQ(out[0].lines.size(), 60u);
    std::set<std::uint32_t> threads;
    for (const PrintedLine& l : out[0].lines) {
        EXPECT_EQ(l.text, "Hello World from the GPU!");
        threads.insert(l.thread);
    }
    EXPECT_EQ(threads.size(), 60u);
    EXPECT_EQ(*threads.rbegin(), 59u);
    const std::string listed = DebugConsole(*s).execute("output");
    EXPECT_NE(listed.find("thread 59: Hello World from the GPU!\n"), std::string::npos) << listed;
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, DebugOutput, ::testing::Values(std::uint64_t(1) << 20, std::uint64_t(20)));

} // namespace
