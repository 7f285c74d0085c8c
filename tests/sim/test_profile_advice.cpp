// Every remedy a profile finding gives, taken: a kernel that draws the finding, the same
// work written as the finding says, and the counter the finding names measured on the
// simulator for both. The remedy must improve it (and the finding go away); advice that
// would make a line worse is never given.
#include "ProfileTestSupport.hpp"
#include "run/ProfileFigures.hpp"
#include "run/ProfileFindings.hpp"

#include <numeric>

using namespace kwtest;
using Kind = kw::ProfileFinding::Kind;

namespace {

struct Measured {
    kw::LineProfile line;
    kw::ProfileFigures figures;
    std::vector<kw::ProfileFinding> findings; // of that line
};

// Profiles one launch and returns the marked line's counters, figures and findings.
Measured measure(const std::string& src, const std::string& kernel, std::vector<kw::BufferArg> buffers,
                 const std::vector<kw::LaunchArg>& args, kw::Dim3 grid, kw::Dim3 block, const std::string& marker)
{
    Measured m;
    const kwtest::Run r = profiled(src, kernel, std::move(buffers), args, grid, block);
    if (!r.report.profile)
        return m;
    const int line = lineOf(src, marker);
    m.line = lineAt(*r.report.profile, src, marker);
    m.figures = kw::figuresOf(m.line.counters, m.line.extras);
    for (const auto& f : kw::profileFindings(*r.report.profile, src))
        if (f.line == line)
            m.findings.push_back(f);
    return m;
}

// The one finding of `kind` on the line, its text (fails when there is none).
std::string findingText(const Measured& m, Kind kind)
{
    for (const auto& f : m.findings)
        if (f.kind == kind)
            return f.text;
    ADD_FAILURE() << "no " << kw::toString(kind) << " finding";
    return {};
}

bool hasFinding(const Measured& m, Kind kind)
{
    return std::any_of(m.findings.begin(), m.findings.end(), [&](const auto& f) { return f.kind == kind; });
}

std::vector<float> zeros(std::size_t n) { return std::vector<float>(n, 0.0f); }

} // namespace

// "let consecutive threads read consecutive elements"
TEST(ProfileAdvice, ConsecutiveElementsForAStridedLoad)
{
    KW_REQUIRE_NVRTC();
    auto run = [](int stride) {
        return measure(kStrided, "ld_strided", {buffer("in", iota(256 * 32)), buffer("out", zeros(256))},
                       {bufArg(0), bufArg(1), scalar<int>(stride), scalar<int>(0)}, {1}, {256}, "// LOAD\n");
    };
    const Measured before = run(32), after = run(1);
    EXPECT_NE(findingText(before, Kind::GlobalLoad).find("let consecutive threads read consecutive elements"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.ldSectorsPerRequest, 32.0);
    EXPECT_DOUBLE_EQ(after.figures.ldSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(after, Kind::GlobalLoad));
}

// "align the first element of each warp to 32 bytes"
TEST(ProfileAdvice, AlignedWarpsForAnOffsetLoad)
{
    KW_REQUIRE_NVRTC();
    auto run = [](int offset) {
        return measure(kStrided, "ld_strided", {buffer("in", iota(257)), buffer("out", zeros(256))},
                       {bufArg(0), bufArg(1), scalar<int>(1), scalar<int>(offset)}, {1}, {256}, "// LOAD\n");
    };
    const Measured before = run(1), after = run(0);
    EXPECT_NE(findingText(before, Kind::GlobalLoad).find("align the first element of each warp to 32 bytes"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.ldSectorsPerRequest, 5.0);
    EXPECT_DOUBLE_EQ(after.figures.ldSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(after, Kind::GlobalLoad));
}

// "load them once with the whole warp before the branch": two branches each read half
// of every warp's elements, so every sector is moved twice; one load before the branch
// moves it once.
TEST(ProfileAdvice, OneWholeWarpLoadForTwoHalfWarpBranches)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void split(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (i & 1)
        v = in[i] * 3.0f;                                       // ODD
    else
        v = float(reinterpret_cast<const int*>(in)[i]);         // EVEN
    out[i] = v;
}
extern "C" __global__ void joined(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];                                            // JOINED
    out[i] = (i & 1) ? x * 3.0f : float(__float_as_int(x));
}
)";
    auto run = [&](const char* kernel) {
        return profiled(src, kernel, {buffer("in", iota(256)), buffer("out", zeros(256))}, {bufArg(0), bufArg(1)}, {1},
                        {256});
    };
    const kwtest::Run before = run("split"), after = run("joined");
    ASSERT_TRUE(before.report.profile && after.report.profile);
    const auto findings = kw::profileFindings(*before.report.profile, src);
    const auto odd = std::find_if(findings.begin(), findings.end(), [&](const auto& f) {
        return f.kind == Kind::GlobalLoad && f.line == lineOf(src, "// ODD");
    });
    ASSERT_NE(odd, findings.end());
    EXPECT_NE(odd->text.find("only 16 of 32 lanes take part"), std::string::npos) << odd->text;
    EXPECT_NE(odd->text.find("load them once with the whole warp before the branch"), std::string::npos) << odd->text;
    EXPECT_EQ(before.report.profile->totals.global_ld_sectors, 64u) << "8 warps, 4 sectors on each path";
    EXPECT_EQ(after.report.profile->totals.global_ld_sectors, 32u);
    EXPECT_EQ(values<float>(before.buffers[1]), values<float>(after.buffers[1])) << "the same result";
    for (const auto& f : kw::profileFindings(*after.report.profile, src))
        EXPECT_NE(f.kind, Kind::GlobalLoad) << f.text;
}

// "make the block 32 threads wide in x": a block 4 threads wide reads rows of 16 bytes.
TEST(ProfileAdvice, AWiderBlockForNarrowRows)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void rows(const float* in, float* out, int pitch) {
    int x = threadIdx.x, y = threadIdx.y;
    out[y * blockDim.x + x] = in[y * pitch + x];   // ROWS
}
)";
    auto run = [&](kw::Dim3 block) {
        return measure(src, "rows", {buffer("in", iota(64 * 64)), buffer("out", zeros(64 * 64))},
                       {bufArg(0), bufArg(1), scalar<int>(64)}, {1}, block, "// ROWS");
    };
    const Measured before = run({4, 8}), after = run({32, 1});
    EXPECT_NE(findingText(before, Kind::GlobalLoad).find("make the block 32 threads wide in x"), std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.ldSectorsPerRequest, 8.0);
    EXPECT_DOUBLE_EQ(after.figures.ldSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(after, Kind::GlobalLoad));
}

// "make the row pitch a multiple of 32 bytes": rows of 8 floats, 65 floats apart.
TEST(ProfileAdvice, APaddedPitchForRowsOffTheSectors)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void rows(const float* in, float* out, int pitch) {
    int x = threadIdx.x, y = threadIdx.y;
    out[y * blockDim.x + x] = in[y * pitch + x];   // ROWS
}
)";
    auto run = [&](int pitch) {
        return measure(src, "rows", {buffer("in", iota(72 * 8)), buffer("out", zeros(64))},
                       {bufArg(0), bufArg(1), scalar<int>(pitch)}, {1}, {8, 4}, "// ROWS");
    };
    const Measured before = run(65), after = run(72);
    EXPECT_NE(findingText(before, Kind::GlobalLoad).find("make the row pitch a multiple of 32 bytes"),
              std::string::npos);
    EXPECT_GT(before.figures.ldSectorsPerRequest, 4.0);
    EXPECT_DOUBLE_EQ(after.figures.ldSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(after, Kind::GlobalLoad));
}

// A naive transpose with 16 x 16 blocks writes down columns. Widening the block to 32
// threads in x makes it worse (every lane then needs a sector of its own), so that is
// not the advice; staging a tile through shared memory, as the finding says, is.
TEST(ProfileAdvice, ATransposedIndexIsStagedThroughSharedMemory)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void naive(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * n + y] = in[y * n + x];                                  // NAIVE
}
extern "C" __global__ void staged(const float* in, float* out, int n) {
    __shared__ float tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    int tx = blockIdx.y * 16 + threadIdx.x, ty = blockIdx.x * 16 + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];               // STAGED
}
)";
    const int n = 64;
    auto run = [&](const char* kernel, kw::Dim3 grid, kw::Dim3 block, const char* marker) {
        return measure(src, kernel, {buffer("in", iota(n * n)), buffer("out", zeros(n * n))},
                       {bufArg(0), bufArg(1), scalar<int>(n)}, grid, block, marker);
    };
    const Measured before = run("naive", {4, 4}, {16, 16}, "// NAIVE");
    const Measured wider = run("naive", {2, 8}, {32, 8}, "// NAIVE");
    const Measured staged = run("staged", {4, 4}, {16, 16}, "// STAGED");
    EXPECT_DOUBLE_EQ(before.figures.stSectorsPerRequest, 16.0);
    EXPECT_DOUBLE_EQ(wider.figures.stSectorsPerRequest, 32.0) << "a wider block is worse";
    const std::string text = findingText(before, Kind::GlobalStore);
    EXPECT_EQ(text.find("32 threads wide"), std::string::npos) << text;
    EXPECT_NE(text.find("transposed index"), std::string::npos) << text;
    EXPECT_NE(text.find("stage a tile through shared memory"), std::string::npos) << text;
    EXPECT_DOUBLE_EQ(staged.figures.stSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(staged, Kind::GlobalStore));
}

// The same finding for a gather through scattered indices: "sort or group the indices".
TEST(ProfileAdvice, ScatteredIndicesAreSorted)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void gather(const float* in, const int* idx, float* out) {
    int i = threadIdx.x;
    int j = idx[i];
    out[i] = in[j];                        // GATHER
}
)";
    // Every lane 16 floats or more from the others, then the warp's indices side by side.
    std::vector<int> scattered(256), grouped(256);
    for (int i = 0; i < 256; ++i) {
        scattered[i] = (i * 97) % 256 * 16;
        grouped[i] = i;
    }
    auto run = [&](const std::vector<int>& idx) {
        return measure(src, "gather", {buffer("in", iota(256 * 16)), buffer("idx", idx), buffer("out", zeros(256))},
                       {bufArg(0), bufArg(1), bufArg(2)}, {1}, {256}, "// GATHER");
    };
    const Measured before = run(scattered), after = run(grouped);
    const std::string text = findingText(before, Kind::GlobalLoad);
    EXPECT_NE(text.find("sort or group the indices"), std::string::npos) << text;
    EXPECT_DOUBLE_EQ(before.figures.ldSectorsPerRequest, 32.0);
    EXPECT_DOUBLE_EQ(after.figures.ldSectorsPerRequest, 4.0);
    EXPECT_FALSE(hasFinding(after, Kind::GlobalLoad));
}

// "pad it to 33": the column read of a 32-wide tile.
TEST(ProfileAdvice, APaddedTileForAColumnRead)
{
    KW_REQUIRE_NVRTC();
    auto run = [](int pad) {
        const std::string src = transposeSource(pad);
        return measure(src, "transpose", {buffer("in", iota(1024)), buffer("out", zeros(1024))}, {bufArg(0), bufArg(1)},
                       {1}, {32, 32}, "// READ_TILE");
    };
    const Measured before = run(0), after = run(1);
    EXPECT_NE(findingText(before, Kind::SharedLoad).find("pad it to 33"), std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.sharedLdWays, 32.0);
    EXPECT_DOUBLE_EQ(after.figures.sharedLdWays, 1.0);
    EXPECT_FALSE(hasFinding(after, Kind::SharedLoad));
}

// "make the step an odd number of 4-byte words": two words apart, then three.
TEST(ProfileAdvice, AnOddStepForEvenWordStrides)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void step(const float* in, float* out, int words) {
    __shared__ float s[32 * 4];
    for (int k = threadIdx.x; k < 32 * 4; k += blockDim.x) s[k] = in[k];
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x * words];   // STEP
}
)";
    auto run = [&](int words) {
        return measure(src, "step", {buffer("in", iota(128)), buffer("out", zeros(32))},
                       {bufArg(0), bufArg(1), scalar<int>(words)}, {1}, {32}, "// STEP");
    };
    const Measured before = run(2), after = run(3);
    EXPECT_NE(findingText(before, Kind::SharedLoad).find("make the step an odd number of 4-byte words"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.sharedLdWays, 2.0);
    EXPECT_DOUBLE_EQ(after.figures.sharedLdWays, 1.0);
    EXPECT_FALSE(hasFinding(after, Kind::SharedLoad));
}

// "spread the indices over the 32 banks": eight banks of four words each, then all 32.
TEST(ProfileAdvice, IndicesSpreadOverTheBanks)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void banks(const float* in, float* out, int spread) {
    __shared__ float s[128];
    for (int k = threadIdx.x; k < 128; k += blockDim.x) s[k] = in[k];
    __syncwarp();
    int t = threadIdx.x;
    int w = spread ? (t % 4) * 8 + t / 4 : (t % 4) * 32 + t / 4;
    out[t] = s[w];                                 // BANKS
}
)";
    auto run = [&](int spread) {
        return measure(src, "banks", {buffer("in", iota(128)), buffer("out", zeros(32))},
                       {bufArg(0), bufArg(1), scalar<int>(spread)}, {1}, {32}, "// BANKS");
    };
    const Measured before = run(0), after = run(1);
    EXPECT_NE(findingText(before, Kind::SharedLoad).find("spread the indices over the 32 banks"), std::string::npos);
    EXPECT_DOUBLE_EQ(before.figures.sharedLdWays, 4.0);
    EXPECT_DOUBLE_EQ(after.figures.sharedLdWays, 1.0);
    EXPECT_FALSE(hasFinding(after, Kind::SharedLoad));
}

// "index it with constants (unrolled loops)": a runtime index, then constant ones.
TEST(ProfileAdvice, ConstantIndicesKeepAnArrayInRegisters)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void runtime_index(const int* idx, float* out) {
    float a[8];
    for (int k = 0; k < 8; ++k) a[k] = k * 0.5f;
    out[threadIdx.x] = a[idx[threadIdx.x]];        // RUNTIME
}
extern "C" __global__ void constant_index(const int* idx, float* out) {
    float a[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = k * 0.5f;
    float v = 0.0f;
    int j = idx[threadIdx.x];
#pragma unroll
    for (int k = 0; k < 8; ++k) v = (k == j) ? a[k] : v;
    out[threadIdx.x] = v;                          // CONSTANT
}
)";
    std::vector<int> idx(64);
    for (int i = 0; i < 64; ++i)
        idx[i] = i % 8;
    auto run = [&](const char* kernel) {
        const kwtest::Run r
            = profiled(src, kernel, {buffer("idx", idx), buffer("out", zeros(64))}, {bufArg(0), bufArg(1)}, {1}, {64});
        return r;
    };
    const kwtest::Run before = run("runtime_index"), after = run("constant_index");
    ASSERT_TRUE(before.report.profile && after.report.profile);
    const auto findings = kw::profileFindings(*before.report.profile, src);
    const auto local
        = std::find_if(findings.begin(), findings.end(), [](const auto& f) { return f.kind == Kind::LocalMemory; });
    ASSERT_NE(local, findings.end());
    EXPECT_NE(local->text.find("index it with constants (unrolled loops)"), std::string::npos) << local->text;
    const auto& b = before.report.profile->totals;
    const auto& a = after.report.profile->totals;
    EXPECT_GT(b.local_ld_requests + b.local_st_requests, 0u);
    EXPECT_EQ(a.local_ld_requests + a.local_st_requests, 0u);
    EXPECT_EQ(values<float>(before.buffers[1]), values<float>(after.buffers[1])) << "the same result";
}

// "reduce within the warp first and let one lane do the atomic".
TEST(ProfileAdvice, AWarpReductionBeforeTheAtomic)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void every_lane(int* counter) {
    atomicAdd(counter, 1);                                  // EVERY
}
extern "C" __global__ void one_lane(int* counter) {
    int v = 1;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(counter, v);     // ONE
}
)";
    const Measured before
        = measure(src, "every_lane", {buffer("counter", std::vector<int>(1))}, {bufArg(0)}, {1}, {256}, "// EVERY");
    const kwtest::Run after
        = profiled(src, "one_lane", {buffer("counter", std::vector<int>(1))}, {bufArg(0)}, {1}, {256});
    EXPECT_NE(findingText(before, Kind::AtomicContention).find("reduce within the warp first"), std::string::npos);
    EXPECT_EQ(before.line.extras.atomic_lanes / before.line.extras.atomic_addresses, 32u);
    ASSERT_TRUE(after.report.profile);
    const kw::LineProfile one = lineAt(*after.report.profile, src, "// ONE");
    EXPECT_EQ(one.extras.atomic_lanes / std::max<std::uint64_t>(one.extras.atomic_addresses, 1), 1u);
    EXPECT_EQ(values<int>(after.buffers[0]), std::vector<int>{256});
    for (const auto& f : kw::profileFindings(*after.report.profile, src))
        EXPECT_NE(f.kind, Kind::AtomicContention) << f.text;
}
