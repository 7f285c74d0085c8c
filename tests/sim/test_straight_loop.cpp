// Which loops of a document of steps are straight (run/StraightLoop): recorded once and
// replayed as a whole (a CUDA graph) after their first pass, and which run step by step.
#include "run/StraightLoop.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

StepSpec launch(const std::string& kernel, std::vector<ArgSpec> args, std::vector<std::string> grid = {"4"})
{
    StepSpec s;
    s.kind = StepSpec::Kind::Launch;
    s.kernel = kernel;
    s.launch.grid = std::move(grid);
    s.launch.block = {"128"};
    s.args = std::move(args);
    return s;
}

ArgSpec buffer(const std::string& name)
{
    ArgSpec a;
    a.buffer = name;
    return a;
}

ArgSpec scalar(const std::string& value)
{
    ArgSpec a;
    a.value = value;
    return a;
}

StepSpec swap(const std::string& a, const std::string& b)
{
    StepSpec s;
    s.kind = StepSpec::Kind::Swap;
    s.from = a;
    s.to = b;
    return s;
}

StepSpec repeat(std::vector<StepSpec> steps, const std::string& index = "t")
{
    StepSpec s;
    s.kind = StepSpec::Kind::Repeat;
    s.times = "100";
    s.index = index;
    s.steps = std::move(steps);
    return s;
}

const std::vector<std::string> kBuffers{"u", "v", "flag"};

} // namespace

TEST(StraightLoop, APingPongOfALaunchAndASwapIsStraightWithTheSamePasses)
{
    const StraightLoop v = StraightLoop::of(
        repeat({launch("step", {buffer("u"), buffer("v"), scalar("n * 2")}), swap("u", "v")}), kBuffers, {});
    EXPECT_TRUE(v.straight()) << v.why();
    EXPECT_TRUE(v.samePasses());
    EXPECT_EQ(v.opsPerPass(), 1u);
}

TEST(StraightLoop, ThePassIndexInAnArgumentOrTheGridKeepsItStraightButThePassesDiffer)
{
    const StraightLoop arg
        = StraightLoop::of(repeat({launch("up", {buffer("u"), scalar("2 << d")})}, "d"), kBuffers, {});
    EXPECT_TRUE(arg.straight()) << arg.why();
    EXPECT_FALSE(arg.samePasses());
    const StraightLoop grid
        = StraightLoop::of(repeat({launch("up", {buffer("u")}, {"cdiv(n / (2 << d), 256)"})}, "d"), kBuffers, {});
    EXPECT_FALSE(grid.samePasses());
    // A name that only contains the index's letters is another name.
    const StraightLoop other
        = StraightLoop::of(repeat({launch("up", {buffer("u"), scalar("dd + d2")})}, "d"), kBuffers, {});
    EXPECT_TRUE(other.samePasses());
}

TEST(StraightLoop, CopiesAndFillsCountAsOperationsAndTheirExpressionsAreLookedAt)
{
    StepSpec copy;
    copy.kind = StepSpec::Kind::Copy;
    copy.from = "u";
    copy.to = "v";
    copy.count = "n - t";
    StepSpec fill;
    fill.kind = StepSpec::Kind::Fill;
    fill.to = "flag";
    fill.value = "0";
    const StraightLoop v = StraightLoop::of(repeat({copy, fill, launch("k", {buffer("u")})}), kBuffers, {});
    EXPECT_TRUE(v.straight()) << v.why();
    EXPECT_FALSE(v.samePasses()) << "the copy's count names the index";
    EXPECT_EQ(v.opsPerPass(), 3u);
}

TEST(StraightLoop, ALoopUntilAConditionIsNotStraight)
{
    StepSpec until = repeat({launch("k", {buffer("u")})});
    until.kind = StepSpec::Kind::RepeatUntil;
    until.until = "flag(0) == 0";
    const StraightLoop v = StraightLoop::of(until, kBuffers, {});
    EXPECT_FALSE(v.straight());
    EXPECT_NE(v.why().find("condition"), std::string::npos) << v.why();
}

TEST(StraightLoop, ChecksInsideTheLoopReadTheBuffersEveryPass)
{
    StepSpec checked = launch("k", {buffer("u")});
    checked.checks.push_back(CheckSpec{"u", "1"});
    const StraightLoop v = StraightLoop::of(repeat({launch("k", {buffer("u")}), checked}), kBuffers, {});
    EXPECT_FALSE(v.straight());
    EXPECT_NE(v.why().find("step 2 has checks"), std::string::npos) << v.why();
    // Checks of the loop itself run after its last pass: still straight.
    StepSpec loop = repeat({launch("k", {buffer("u")})});
    loop.checks.push_back(CheckSpec{"u", "1"});
    EXPECT_TRUE(StraightLoop::of(loop, kBuffers, {}).straight());
}

TEST(StraightLoop, AnExpressionThatReadsABufferIsNotStraight)
{
    const StraightLoop v = StraightLoop::of(repeat({launch("k", {buffer("u"), scalar("flag(0) + 1")})}), kBuffers, {});
    EXPECT_FALSE(v.straight());
    EXPECT_NE(v.why().find("reads the buffer flag"), std::string::npos) << v.why();
}

TEST(StraightLoop, AKernelThatPrintsANestedLoopOrNothingToDoIsNotStraight)
{
    const StraightLoop prints = StraightLoop::of(repeat({launch("hello", {})}), kBuffers, {"hello"});
    EXPECT_FALSE(prints.straight());
    EXPECT_NE(prints.why().find("hello, which prints"), std::string::npos) << prints.why();
    const StraightLoop nested = StraightLoop::of(repeat({repeat({launch("k", {buffer("u")})})}), kBuffers, {});
    EXPECT_FALSE(nested.straight());
    EXPECT_NE(nested.why().find("is a loop"), std::string::npos) << nested.why();
    EXPECT_FALSE(StraightLoop::of(repeat({swap("u", "v")}), kBuffers, {}).straight());
}

TEST(StraightLoop, NamesInAnExpressionSkipNumbers)
{
    EXPECT_EQ(namesIn("cdiv(n / (2 << d), 256)"), (std::vector<std::string>{"cdiv", "n", "d"}));
    EXPECT_EQ(namesIn("1e5 + x_1*0x10"), (std::vector<std::string>{"x_1"}));
    EXPECT_TRUE(namesIn("").empty());
}
