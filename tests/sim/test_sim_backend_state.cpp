// What a process asks of its backend after a launch (launch/Backend.hpp), answered by
// the simulator: a fault or a timeout leaves it usable with nothing still running,
// and any device printf buffer size may follow any other.
#include "SimTestSupport.hpp"

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
