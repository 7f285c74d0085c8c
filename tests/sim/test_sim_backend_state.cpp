// What a process asks of its backend after a launch (launch/Backend.hpp), answered by
// the simulator: a fault or a timeout leaves it usable with nothing still running,
// and any device printf buffer size may follow any other.
#include "SimTestSupport.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

using namespace kwtest;

namespace {

// The simulator seen as the runner and the CLI see it: through the interface alone.
const kw::Backend& asBackend(const kw::SimBackend& sim) { return sim; }

} // namespace

TEST(SimBackendState, AFreshSimulatorIsUsableAndIdle)
{
    kw::SimBackend sim;
    EXPECT_TRUE(asBackend(sim).usable());
    EXPECT_FALSE(asBackend(sim).stillRunning());
    EXPECT_TRUE(asBackend(sim).canUsePrintfBuffer(1 << 20));
}

TEST(SimBackendState, AFaultLeavesTheSimulatorUsable)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void k(int* a) { a[threadIdx.x + 1000000] = 1; })", "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<int>(32, 0))};
    kw::SimBackend sim;
    const auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {32}));
    ASSERT_TRUE(rep.fault);
    EXPECT_TRUE(asBackend(sim).usable());
    EXPECT_FALSE(asBackend(sim).stillRunning());
}

TEST(SimBackendState, ATimeoutLeavesNothingRunning)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void k(volatile int* a) { while (a[0] == 0) {} })", "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<int>(1, 0))};
    kw::SimBackend sim;
    const auto rep = sim.launch(*img, bufs, {bufArg(0)}, config({1}, {1}, 0, 0.2));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::Timeout);
    EXPECT_TRUE(asBackend(sim).usable());
    EXPECT_FALSE(asBackend(sim).stillRunning());
}

TEST(SimBackendState, EveryPrintfBufferSizeIsAvailableAfterALaunch)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void k(int* a) { a[threadIdx.x] = 1; })", "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<int>(32, 0))};
    kw::SimBackend sim;
    kw::LaunchConfig c = config({1}, {32});
    c.printfBufferBytes = 4096;
    ASSERT_TRUE(sim.launch(*img, bufs, {bufArg(0)}, c).ok);
    EXPECT_TRUE(asBackend(sim).canUsePrintfBuffer(4096));
    EXPECT_TRUE(asBackend(sim).canUsePrintfBuffer(8u << 20));
}

// The repeats' budget is a deadline: a kernel that takes microseconds on a buffer that
// takes milliseconds to restore would otherwise be repeated (budget / kernel time) times,
// hours here. The note names how many ran, which are the times reported.
TEST(SimBackendState, TimedRepeatsStopAtTheirBudgetEvenWhenRestoringCostsMore)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void k(int* a) { a[0] += 1; })", "k");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("a", std::vector<int>(16 << 20, 0))}; // 64 MiB
    kw::SimBackend sim;
    sim.setRepeatBudgetSeconds(0.2);
    kw::LaunchConfig c = config({1}, {1});
    c.repeats = 1000000;
    const auto start = std::chrono::steady_clock::now();
    const auto rep = sim.launch(*img, bufs, {bufArg(0)}, c);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    EXPECT_LT(seconds, 10.0) << "a 0.2 s budget; without the deadline this takes minutes";
    const std::size_t ran = rep.timings.repeatMs.size();
    EXPECT_GE(ran, 1u);
    EXPECT_LT(ran, 100000u) << "the repeats ran past their budget";
    ASSERT_EQ(rep.warnings.size(), 1u);
    EXPECT_NE(rep.warnings[0].find(std::to_string(ran) + " of 1000000 timed repeats"), std::string::npos)
        << rep.warnings[0];
    EXPECT_EQ(values<int>(bufs[0])[0], 1) << "the buffers end as the first launch left them";
}

// The simulator runs no warm-up launches, so warm-up alone copies nothing and runs once;
// with timed repeats the buffers still end as the first launch left them.
TEST(SimBackendState, WarmUpAloneRunsOnceAndRepeatsLeaveTheFirstLaunchsBuffers)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(R"(extern "C" __global__ void k(int* a) { a[threadIdx.x] += threadIdx.x + 1; })", "k");
    ASSERT_TRUE(img);
    kw::SimBackend sim;
    for (const auto& [warmup, repeats] : {std::pair{5, 0}, std::pair{2, 3}}) {
        std::vector<kw::BufferArg> bufs{buffer("a", std::vector<int>(32, 10))};
        kw::LaunchConfig c = config({1}, {32});
        c.warmup = warmup;
        c.repeats = repeats;
        const auto rep = sim.launch(*img, bufs, {bufArg(0)}, c);
        ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
        EXPECT_EQ(rep.timings.repeatMs.size(), std::size_t(std::max(repeats, 1))) << warmup << " warm-up";
        const std::vector<int> got = values<int>(bufs[0]);
        for (int i = 0; i < 32; ++i)
            ASSERT_EQ(got[std::size_t(i)], 10 + i + 1)
                << "element " << i << ", " << warmup << " warm-up, " << repeats << " repeats";
    }
}
