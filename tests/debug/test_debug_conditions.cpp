// Breakpoint conditions: the compiled form of simple comparisons (LanePredicate) gives
// the lanes the general evaluator gives, on registers of every kind holding any bits;
// and a conditional breakpoint stops exactly where the host says the condition holds.
#include "DebugTestSupport.hpp"
#include "debug/LaneExpression.hpp"
#include "debug/LanePredicate.hpp"
#include "sim/Warp.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace {

using namespace kwtest;
using namespace kw::debug;

const std::string kIndex = R"(
__global__ void index(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i] * 2.0f; // once
        for (int k = 0; k < 4; ++k)
            v = v * 0.5f + 1.0f; // loop
        y[i] = v;
    }
}
)";

constexpr std::uint32_t kBlocks = 8, kThreads = 64;

std::unique_ptr<DebugSession> indexSession()
{
    const std::size_t n = kBlocks * kThreads;
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = float(i) - 100.0f;
    return debugSession(kIndex, "index", {typed("x", x), typed("y", std::vector<float>(n, 0.0f))},
                        {bufArg(0), bufArg(1), scalar<int>(int(n))}, config({kBlocks, 1, 1}, {kThreads, 1, 1}));
}

// The first register the kernel declares with the name's prefix ("%f", "%r", "%rd", "%p").
std::string registerNamed(const kw::sim::Function& fn, const std::string& prefix)
{
    for (const auto& name : fn.regNames)
        if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() && std::isdigit(name[prefix.size()]))
            return name;
    return {};
}

TEST(DebugConditions, TheCompiledFormAgreesWithTheGeneralEvaluatorOnAnyBits)
{
    KW_REQUIRE_NVRTC();
    auto s = indexSession();
    ASSERT_TRUE(s);
    const kw::sim::Function& fn = s->function();
    const std::string f = registerNamed(fn, "%f"), r = registerNamed(fn, "%r"), rd = registerNamed(fn, "%rd"),
                      p = registerNamed(fn, "%p");
    ASSERT_FALSE(f.empty() || r.empty() || rd.empty() || p.empty());
    const std::vector<std::string> conditions = {
        "threadIdx.x == 17",
        "blockIdx.x == 3 && threadIdx.x == 17",
        "threadIdx.x > 4096 || " + f + " < -1e30",
        "(lane < 8 || lane >= 24) && warp != 2",
        r + " <= -5",
        f + " >= 0.5 && " + f + " != " + f, // NaN lanes: != holds, >= does not
        f + " == " + f,
        rd + " > 1e12 || " + p + " == 1",
        "threadIdx.y != 1 && blockDim.x == 64 && gridDim.x >= 8",
        "-3.5e2 < " + f + " && " + f + " < 2.5",
        "((lane > 3) && (lane < 9)) || (" + r + " == 0)",
        "%tid.x == 5 || %laneid > 29",
    };
    // A warp of random registers: integers, floats of every class, specials.
    std::mt19937_64 rng(7);
    std::vector<std::uint64_t> regs(std::size_t(fn.numRegs) * 32);
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f, 0.5f,    -1e31f,
                              std::numeric_limits<float>::infinity(),  2.0f,  -350.0f, 1.0f};
    for (std::size_t i = 0; i < regs.size(); ++i) {
        const std::uint64_t bits = rng();
        switch (bits % 4) {
        case 0: regs[i] = bits; break;
        case 1: regs[i] = bits % 40 - 20; break;
        case 2: regs[i] = std::bit_cast<std::uint32_t>(specials[(bits >> 8) % 8]); break;
        default: regs[i] = std::bit_cast<std::uint32_t>(float(int((bits >> 8) % 2001) - 1000) / 100.0f); break;
        }
    }
    for (int l = 0; l < 32; ++l) { // threadIdx and friends as small numbers, as a launch has them
        regs[kw::sim::RegTidX * 32 + l] = std::uint64_t(l + 32 * (rng() % 3));
        regs[kw::sim::RegTidY * 32 + l] = rng() % 2;
        regs[kw::sim::RegNtidX * 32 + l] = 64;
        regs[kw::sim::RegNctaidX * 32 + l] = 8;
        regs[kw::sim::RegCtaidX * 32 + l] = 3;
        regs[kw::sim::RegLaneId * 32 + l] = std::uint64_t(l);
    }
    kw::sim::Warp w;
    w.R = regs.data();
    w.warpId = 1;
    for (const std::string& text : conditions) {
        const auto compiled = LanePredicate::compile(text, fn, 0);
        ASSERT_TRUE(compiled) << text << ": not compiled";
        const LaneExpression general(text, fn, 0, s->buffers());
        std::uint32_t expected = 0;
        for (int l = 0; l < 32; ++l)
            expected |= std::uint32_t(general.evaluate(w, l) != 0) << l;
        EXPECT_EQ(compiled->holds(w, 0xffffffffu), expected) << text;
        EXPECT_EQ(compiled->holds(w, 0x0000ff00u), expected & 0x0000ff00u) << text;
        EXPECT_EQ(general.firstTrue(w, 0xfffffff0u),
                  (expected & 0xfffffff0u) ? std::countr_zero(expected & 0xfffffff0u) : -1)
            << text;
    }
    // What the simple form does not cover is left to the general evaluator.
    for (const std::string& text :
         std::vector<std::string>{r + " + 1 > 2", "x(3) > 1", "abs(" + f + ") > 2", "threadIdx.x % 5 == 0", "lane",
                                  "0x10 > lane", "lane > 1 > 0"})
        EXPECT_FALSE(LanePredicate::compile(text, fn, 0)) << text;
}

TEST(DebugConditions, ABreakpointOnBlockAndThreadStopsAtThatThreadOnly)
{
    KW_REQUIRE_NVRTC();
    auto s = indexSession();
    ASSERT_TRUE(s);
    BreakpointSpec b{"", std::uint32_t(lineOf(kIndex, "// once"))};
    b.condition = "blockIdx.x == 3 && threadIdx.x == 49";
    s->addBreakpoint(b);
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint) << hit.message;
    EXPECT_EQ(hit.block, 3u);
    EXPECT_EQ(hit.warp, 1u);
    EXPECT_EQ(hit.lane, 17);
    EXPECT_EQ(s->evaluate("blockIdx.x * blockDim.x + threadIdx.x").number, 3.0 * kThreads + 49);
    EXPECT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    EXPECT_EQ(s->breakpoints().front().hits, 1u);
}

// Every warp's arrival where some lane satisfies the condition is a hit; the lane named
// is the first such lane. Compiled and general conditions alike, counted on the host.
TEST(DebugConditions, HitsOverAWholeLaunchAreThoseTheHostCounts)
{
    KW_REQUIRE_NVRTC();
    struct Case {
        std::string condition;
        bool (*holds)(std::uint32_t block, std::uint32_t thread);
    };
    const Case cases[] = {
        {"threadIdx.x >= 60 || blockIdx.x == 1 && lane < 2",
         [](std::uint32_t b, std::uint32_t t) { return t >= 60 || (b == 1 && t % 32 < 2); }},
        {"threadIdx.x % 7 == 3 && blockIdx.x != 2", // the general evaluator
         [](std::uint32_t b, std::uint32_t t) { return t % 7 == 3 && b != 2; }},
        {"blockIdx.x == 5 && threadIdx.x == 40", [](std::uint32_t b, std::uint32_t t) { return b == 5 && t == 40; }},
    };
    for (const Case& c : cases) {
        auto s = indexSession();
        ASSERT_TRUE(s);
        BreakpointSpec b{"", std::uint32_t(lineOf(kIndex, "// once"))};
        b.condition = c.condition;
        s->addBreakpoint(b);
        std::vector<std::tuple<std::uint64_t, std::uint32_t, int>> expected, got;
        for (std::uint32_t blk = 0; blk < kBlocks; ++blk)
            for (std::uint32_t warp = 0; warp < kThreads / 32; ++warp)
                for (std::uint32_t l = 0; l < 32; ++l)
                    if (c.holds(blk, warp * 32 + l)) {
                        expected.emplace_back(blk, warp, int(l));
                        break;
                    }
        for (Stop st = s->resume(Motion::Continue); st.reason == StopReason::Breakpoint;
             st = s->resume(Motion::Continue))
            got.emplace_back(st.block, st.warp, st.lane);
        EXPECT_EQ(got, expected) << c.condition;
        EXPECT_EQ(s->breakpoints().front().hits, expected.size()) << c.condition;
    }
}

} // namespace

namespace {

const std::string kShared = R"(
__global__ void shuffle(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * 3; // write
    __syncthreads();
    int v = s[63 - t] + 1; // read
    out[t] = v; // store
}
)";

// Where each of the first hits of a watch on shared word `word` stops.
std::vector<std::uint64_t> watchStops(bool withBreakpoint, std::uint64_t word)
{
    auto s = debugSession(kShared, "shuffle", {typed("out", std::vector<int>(64, 0))}, {bufArg(0)},
                          config({2, 1, 1}, {64, 1, 1}));
    if (!s)
        return {};
    s->addWatch({"", 4 * word, kw::DType::I32});
    if (withBreakpoint) { // on another line, never firing: only its line's instructions are announced
        BreakpointSpec b{"", std::uint32_t(lineOf(kShared, "// store"))};
        b.condition = "threadIdx.x > 1000";
        s->addBreakpoint(b);
    }
    std::vector<std::uint64_t> at;
    for (Stop st = s->resume(Motion::Continue); st.reason == StopReason::Watch; st = s->resume(Motion::Continue))
        at.push_back(st.position);
    return at;
}

} // namespace

// A watch's stop comes right after the write, whether or not a breakpoint elsewhere
// narrows which instructions the debugger is told of.
TEST(DebugConditions, AWatchStopsAtTheSamePlaceBesideABreakpoint)
{
    KW_REQUIRE_NVRTC();
    for (std::uint64_t word : {0u, 40u}) {
        const auto alone = watchStops(false, word);
        EXPECT_EQ(alone.size(), 2u); // one write in each block
        EXPECT_EQ(watchStops(true, word), alone) << "word " << word;
    }
}
