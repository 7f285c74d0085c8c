// A profile is the same whatever number of simulator threads ran its blocks: the extras
// that keep an instruction's first regular pattern (its stride in each space, its global
// run bytes) come from the lowest block that set them, as on one thread, never from
// whichever worker's counts were merged first.
#include "ProfileTestSupport.hpp"

using namespace kwtest;

namespace {

// Block 0's lanes follow no pattern (`scatter`: per warp, lanes 0 and 1 neighbours and
// the rest ever wider apart, so no stride and no equal runs) in each of its 32 warps, as
// many requests as an instruction's search looks at in a block. Block b > 0 reads with a
// stride of b floats, in rows of 2 << (b % 4) floats, and stores to shared memory with a
// stride of b + 1 words: each block sets the extras differently.
const std::string kPatterns = R"(
extern "C" __global__ void patterns(const float* in, const int* scatter, float* out) {
    __shared__ float s[8192];
    unsigned b = blockIdx.x, t = threadIdx.x;
    unsigned w = 2u << (b & 3u);
    unsigned strided = b == 0 ? scatter[t] : t * b;
    unsigned rows = b == 0 ? scatter[t] : (t / w) * 64u + t % w;
    unsigned spread = b == 0 ? scatter[t] & 8191u : (t * (b + 1u)) & 8191u;
    float v = in[strided];                                // STRIDED
    v += in[rows];                                        // ROWS
    s[spread] = v;                                        // SHARED_STORE
    __syncthreads();
    out[b * blockDim.x + t] = s[t];
}
)";

constexpr int kBlocks = 16, kThreadsPerBlock = 1024;

std::vector<int> scatterIndices()
{
    std::vector<int> idx(kThreadsPerBlock);
    for (int warp = 0; warp < kThreadsPerBlock / 32; ++warp) {
        int pos = 0;
        for (int lane = 0; lane < 32; ++lane) {
            pos += lane == 0 ? 0 : lane == 1 ? 1 : lane + 1;
            idx[warp * 32 + lane] = warp * 600 + pos;
        }
    }
    return idx;
}

kw::KernelProfile profileOn(unsigned threads)
{
    Run r = profiled(kPatterns, "patterns",
                     {buffer("in", iota(32768)), buffer("scatter", scatterIndices()),
                      buffer("out", std::vector<float>(kBlocks * kThreadsPerBlock))},
                     {bufArg(0), bufArg(1), bufArg(2)}, {kBlocks}, {kThreadsPerBlock}, std::nullopt, true, threads);
    return r.report.profile.value_or(kw::KernelProfile{});
}

} // namespace

TEST(ProfileThreads, FirstPatternsComeFromTheLowestBlockOnEveryThreadCount)
{
    KW_REQUIRE_NVRTC();
    const kw::KernelProfile one = profileOn(1);
    ASSERT_FALSE(one.lines.empty());
    for (int attempt = 0; attempt < 25; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt));
        const kw::KernelProfile many = profileOn(4);
        ASSERT_EQ(many.lines.size(), one.lines.size());
        for (std::size_t k = 0; k < one.lines.size(); ++k) {
            SCOPED_TRACE("line " + std::to_string(one.lines[k].line));
            EXPECT_EQ(many.lines[k].counters, one.lines[k].counters);
            EXPECT_EQ(many.lines[k].extras, one.lines[k].extras);
        }
        EXPECT_EQ(many.totals, one.totals);
        EXPECT_EQ(many.totalExtras, one.totalExtras);
        if (HasFailure())
            break;
    }
    // Block 0 looks at its 32 requests of each instruction and finds nothing; block 1 gives
    // each pattern: a stride of one float, rows of 4 floats, a shared stride of 2 words.
    EXPECT_EQ(lineAt(one, kPatterns, "// STRIDED").extras.global_ld_stride_bytes, 4u);
    const kw::LineProfile rows = lineAt(one, kPatterns, "// ROWS");
    EXPECT_EQ(rows.extras.global_ld_stride_bytes, 0u);
    EXPECT_EQ(rows.extras.global_ld_run_bytes, 16u);
    EXPECT_EQ(lineAt(one, kPatterns, "// SHARED_STORE").extras.shared_st_stride_bytes, 8u);
}
