// A profiled warp runs a straight line of plain instructions as one issueLine() event
// (BlockRunner::runObservedLine): every line's counters, extras and captured samples
// must equal those of the same launch told one issue() per instruction
// (KW_SIM_PROFILE_PER_INSTRUCTION), on kernels with long lines, partial warps, shared
// memory with bank conflicts, divergence around the lines and the tiled product.
#include "ProfileTestSupport.hpp"
#include "SimBenchKernels.hpp"
#include "SimLaunch.hpp"
#include "SteppedLaunch.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/Warp.hpp"
#include "support/ScopedEnvironment.hpp"

#include <functional>

using namespace kwtest;

namespace {

constexpr const char* kPerInstruction = "KW_SIM_PROFILE_PER_INSTRUCTION";

// Long lines without a guard: loads, arithmetic, a shared store and load two words
// apart (two-way bank conflicts), stores; 48 threads a block, so every second warp has
// 16 lanes.
const std::string kStraight = R"(
extern "C" __global__ void straight(const float* in, float* out, int n) {
    __shared__ float s[48 * 2];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[i] * 1.5f + 2.0f;                        // LOAD_MATH
    float b = a * a - 3.0f * a + in[i + n] * 0.25f;       // MORE
    s[threadIdx.x * 2] = a + b;                           // SHARED_STORE
    float c = s[threadIdx.x * 2] * b + a * 0.5f - b * b;  // SHARED_LOAD
    float d = c * c + a * b + c * 0.125f + b * 3.0f;      // CHAIN
    out[i] = d + c;                                       // STORE
    out[i + n] = a * d - b;                               // STORE2
}
)";

// Lines before, inside and after branches whose lanes split three ways, one of them a
// loop of a different length per lane.
const std::string kDiverge = R"(
extern "C" __global__ void diverge(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float a = v * 2.0f + 1.0f;                            // BEFORE
    if (threadIdx.x % 3 == 0) {
        a = a * a + v * 0.5f - 3.0f;                      // THEN
        a = a * v + in[i ^ 1] * 0.25f;
    } else if (threadIdx.x % 3 == 1) {
        a = a - v * v * 0.75f + in[i ^ 2];                // ELSE_IF
    } else {
        for (int k = 0; k < (threadIdx.x & 7); ++k)
            a = a * 0.5f + v * 1.25f - 0.125f;            // LOOP
    }
    float b = a * a + v * 3.0f - a * 0.5f;                // AFTER
    out[i] = b * b + a;                                   // STORE
}
)";

// Warp 1's lanes from thread 40 on read far past the buffer in the middle of a line:
// the launch stops at that load, which counts, and the line's instructions after it do not.
const std::string kFaultInLine = R"(
extern "C" __global__ void fault_in_line(const float* in, float* out) {
    int i = threadIdx.x;
    float a = in[i] * 2.0f + 1.0f;                        // BEFORE_FAULT
    float b = in[i + (i >= 40) * (1 << 26)] * a + a * a;  // FAULT
    out[i] = b * 0.5f + a;                                // AFTER_FAULT
}
)";

using Launch = std::function<Run()>;

// The launch batched and one instruction at a time, compared line by line.
void expectSameProfile(const Launch& launch, bool captures = true)
{
    Run batched, single;
    {
        kw::test::ScopedEnvironment env(kPerInstruction, std::nullopt);
        batched = launch();
    }
    {
        kw::test::ScopedEnvironment env(kPerInstruction, "1");
        single = launch();
    }
    ASSERT_TRUE(batched.report.profile && single.report.profile);
    const kw::KernelProfile &b = *batched.report.profile, &s = *single.report.profile;
    ASSERT_EQ(b.lines.size(), s.lines.size());
    ASSERT_FALSE(b.lines.empty());
    for (std::size_t k = 0; k < b.lines.size(); ++k) {
        SCOPED_TRACE("line " + std::to_string(s.lines[k].line));
        EXPECT_EQ(b.lines[k].file, s.lines[k].file);
        EXPECT_EQ(b.lines[k].line, s.lines[k].line);
        EXPECT_EQ(b.lines[k].counters, s.lines[k].counters);
        EXPECT_EQ(b.lines[k].extras, s.lines[k].extras);
        EXPECT_EQ(b.lines[k].counters.inst_executed, s.lines[k].counters.inst_executed);
        EXPECT_EQ(b.lines[k].counters.thread_inst_executed, s.lines[k].counters.thread_inst_executed);
    }
    EXPECT_EQ(b.totals, s.totals);
    EXPECT_EQ(b.totalExtras, s.totalExtras);
    ASSERT_EQ(b.samples.size(), s.samples.size());
    EXPECT_EQ(b.samples.empty(), !captures);
    for (std::size_t k = 0; k < b.samples.size(); ++k) {
        EXPECT_EQ(b.samples[k].instruction, s.samples[k].instruction);
        for (int l = 0; l < 32; ++l) {
            EXPECT_EQ(b.samples[k].lanes[l].active, s.samples[k].lanes[l].active);
            EXPECT_EQ(b.samples[k].lanes[l].address, s.samples[k].lanes[l].address);
        }
    }
    for (std::size_t k = 0; k < batched.buffers.size(); ++k)
        EXPECT_EQ(values<float>(batched.buffers[k]), values<float>(single.buffers[k])) << "buffer " << k;
}

} // namespace

TEST(ProfileLines, LongStraightLinesCountAsOneInstructionAtATime)
{
    KW_REQUIRE_NVRTC();
    const int n = 4 * 48;
    expectSameProfile([&] {
        return profiled(kStraight, "straight", {buffer("in", iota(2 * n)), buffer("out", std::vector<float>(2 * n))},
                        {bufArg(0), bufArg(1), scalar<int>(n)}, {4}, {48},
                        kw::AccessCaptureRequest{"", lineOf(kStraight, "// SHARED_STORE"), {1, 0, 0}, 1, 8});
    });
}

TEST(ProfileLines, DivergenceAroundLinesCountsAsOneInstructionAtATime)
{
    KW_REQUIRE_NVRTC();
    const int n = 3 * 80;
    expectSameProfile([&] {
        return profiled(kDiverge, "diverge", {buffer("in", iota(n)), buffer("out", std::vector<float>(n))},
                        {bufArg(0), bufArg(1)}, {3}, {80},
                        kw::AccessCaptureRequest{"", lineOf(kDiverge, "// ELSE_IF"), {2, 0, 0}, 2, 8});
    });
}

TEST(ProfileLines, TiledMatmulWithPartialTilesCountsAsOneInstructionAtATime)
{
    KW_REQUIRE_NVRTC();
    const int n = 40;
    const std::string source = kTiledMatmulSource;
    expectSameProfile([&] {
        return profiled(source, "matmul",
                        {buffer("A", iota(n * n)), buffer("B", iota(n * n)), buffer("C", std::vector<float>(n * n))},
                        {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, {3, 3}, {16, 16},
                        kw::AccessCaptureRequest{"", lineOf(source, "s += As"), {1, 1, 0}, 3, 8});
    });
}

TEST(ProfileLines, TransposeWithBankConflictsCountsAsOneInstructionAtATime)
{
    KW_REQUIRE_NVRTC();
    const std::string source = transposeSource(0);
    expectSameProfile(
        [&] {
            return profiled(source, "transpose",
                            {buffer("in", iota(32 * 32)), buffer("out", std::vector<float>(32 * 32))},
                            {bufArg(0), bufArg(1)}, {1}, {32, 32});
        },
        false);
}

TEST(ProfileLines, AFaultInsideALineCountsAsOneInstructionAtATime)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kFaultInLine, "fault_in_line");
    ASSERT_TRUE(img);
    expectSameProfile(
        [&] {
            kwtest::Run r;
            r.buffers = {buffer("in", iota(64)), buffer("out", std::vector<float>(64))};
            kw::LaunchConfig c = config({1}, {64});
            c.profile.enabled = true;
            r.report = kw::SimBackend().launch(*img, r.buffers, {bufArg(0), bufArg(1)}, c);
            EXPECT_FALSE(r.report.ok);
            EXPECT_TRUE(r.report.fault);
            return r;
        },
        false);
}

namespace {

// Counts the line events beside the profile collector, which the runner batches only
// while every issue observer takes them.
class LineEvents : public kw::sim::Observer {
public:
    std::uint64_t lines = 0, instructions = 0;
    std::uint8_t wants() const override { return Issues | Lines; }
    void issue(const kw::sim::Warp&, const kw::sim::Instr&, std::uint32_t) override { ++instructions; }
    void issueLine(const kw::sim::Warp&, std::uint32_t, std::uint32_t n, std::uint32_t) override
    {
        ++lines;
        instructions += n;
    }
};

} // namespace

TEST(ProfileLines, AProfiledWarpRunsItsStraightLinesAsOneEvent)
{
    KW_REQUIRE_NVRTC();
    kw::test::ScopedEnvironment env(kPerInstruction, std::nullopt);
    auto img = compile(kStraight, "straight");
    ASSERT_TRUE(img);
    const int n = 4 * 48;
    std::vector<kw::BufferArg> bufs{buffer("in", iota(2 * n)), buffer("out", std::vector<float>(2 * n))};
    kw::LaunchConfig cfg = config({4}, {48});
    cfg.profile.enabled = true;
    SteppedLaunch s(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(n)}, cfg);
    LineEvents events;
    s.run->makeStepper().observe(events);
    kw::sim::LaunchStatus st;
    while ((st = s.run->advance()) == kw::sim::LaunchStatus::BlockDone) { }
    ASSERT_EQ(st, kw::sim::LaunchStatus::Finished);
    kw::sim::GridRun grid = s.run->finish(1);
    std::uint64_t counted = 0;
    for (const auto& p : grid.profiles)
        for (const auto& pc : p->pcs)
            counted += pc.counters.inst_executed;
    EXPECT_GT(events.lines, 0u);
    EXPECT_EQ(events.instructions, counted);
    // Straight: most instructions came as lines, far fewer events than instructions.
    EXPECT_LT(events.lines * 4, events.instructions);
}
