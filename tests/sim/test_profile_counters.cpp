// Per-line counters of the simulator's profile on textbook kernels, each expected
// number derived by hand in the test as Nsight Compute would count it on a GPU:
// one request per warp-level memory instruction with an active lane, 32-byte sectors,
// 32 banks of 4 bytes for shared memory (docs/profile.md).
#include "ProfileTestSupport.hpp"

using namespace kwtest;

namespace {

struct GlobalCase {
    int stride, offset;
    std::uint64_t sectors; // per kernel: 8 requests
    std::uint32_t strideBytes;
};

// 256 threads in one block: 8 warps, so 8 requests per line. Every buffer starts on a
// 256-byte boundary (as cuMemAlloc's), hence on a sector boundary. A warp asks for
// 32 lanes x 4 bytes = 128 distinct bytes: ideal = 4 sectors per request, 32 in all.
//   stride 1:  lanes read bytes [128w, 128w + 128): 4 sectors per request -> 32
//   stride 2:  lane l reads byte 8l: the warp spans 256 bytes = 8 sectors -> 64
//   stride 32: lane l reads byte 128l: every lane its own sector, 32 per request -> 256
//   offset 1:  bytes [4, 132) of the warp's 128-byte window: sectors 0..4, 5 per request -> 40
const GlobalCase kGlobalCases[] = {
    {1, 0, 32, 4},
    {2, 0, 64, 8},
    {32, 0, 256, 128},
    {1, 1, 40, 4},
};

} // namespace

TEST(ProfileCounters, GlobalLoadsCoalescedStridedAndMisaligned)
{
    KW_REQUIRE_NVRTC();
    for (const GlobalCase& gc : kGlobalCases) {
        SCOPED_TRACE(testing::Message() << "stride " << gc.stride << " offset " << gc.offset);
        auto r = profiled(kStrided, "ld_strided",
                          {buffer("in", iota(256 * 32 + 1)), buffer("out", std::vector<float>(256))},
                          {bufArg(0), bufArg(1), scalar<int>(gc.stride), scalar<int>(gc.offset)}, {1}, {256});
        ASSERT_TRUE(r.report.profile);
        const auto& p = *r.report.profile;
        const auto ld = lineAt(p, kStrided, "// LOAD\n");
        EXPECT_EQ(ld.counters.global_ld_requests, 8u);
        EXPECT_EQ(ld.counters.global_ld_sectors, gc.sectors);
        EXPECT_EQ(ld.extras.global_ld_ideal_sectors, 32u);
        EXPECT_EQ(ld.extras.global_ld_stride_bytes, gc.strideBytes);
        EXPECT_EQ(ld.extras.global_ld_bytes, 4u);
        EXPECT_EQ(ld.counters.global_st_requests, 0u);
        // The store is coalesced in every case: 8 requests of 4 sectors.
        const auto st = lineAt(p, kStrided, "// STORE\n");
        EXPECT_EQ(st.counters.global_st_requests, 8u);
        EXPECT_EQ(st.counters.global_st_sectors, 32u);
        EXPECT_EQ(st.extras.global_st_ideal_sectors, 32u);
        EXPECT_EQ(st.counters.global_ld_requests, 0u);
        EXPECT_EQ(p.totals.global_ld_requests, 8u);
        EXPECT_EQ(p.totals.global_ld_sectors, gc.sectors);
        EXPECT_EQ(p.totals.global_st_sectors, 32u);
        // Every thread ran each line's instructions: thread_inst_executed = 32 x inst_executed.
        EXPECT_EQ(ld.counters.thread_inst_executed, 32 * ld.counters.inst_executed);
        EXPECT_GE(ld.counters.inst_executed, 8u);
        const auto out = values<float>(r.buffers[1]);
        for (int i = 0; i < 256; ++i)
            ASSERT_EQ(out[i], float(i * gc.stride + gc.offset)) << i;
    }
}

TEST(ProfileCounters, GlobalStoresCoalescedStridedAndMisaligned)
{
    KW_REQUIRE_NVRTC();
    for (const GlobalCase& gc : kGlobalCases) {
        SCOPED_TRACE(testing::Message() << "stride " << gc.stride << " offset " << gc.offset);
        auto r = profiled(kStrided, "st_strided",
                          {buffer("in", iota(256)), buffer("out", std::vector<float>(256 * 32 + 1))},
                          {bufArg(0), bufArg(1), scalar<int>(gc.stride), scalar<int>(gc.offset)}, {1}, {256});
        ASSERT_TRUE(r.report.profile);
        const auto& p = *r.report.profile;
        const auto st = lineAt(p, kStrided, "// STORE_ST\n");
        EXPECT_EQ(st.counters.global_st_requests, 8u);
        EXPECT_EQ(st.counters.global_st_sectors, gc.sectors);
        EXPECT_EQ(st.extras.global_st_ideal_sectors, 32u);
        EXPECT_EQ(st.extras.global_st_stride_bytes, gc.strideBytes);
        const auto ld = lineAt(p, kStrided, "// LOAD_ST\n");
        EXPECT_EQ(ld.counters.global_ld_requests, 8u);
        EXPECT_EQ(ld.counters.global_ld_sectors, 32u);
    }
}

TEST(ProfileCounters, VectorLoadsOf8And16Bytes)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void ld_vec2(const float2* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = in[i];             // LOAD2
    out[i] = v.x + v.y;
}
extern "C" __global__ void ld_vec4(const float4* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];             // LOAD4
    out[i] = v.x + v.y + v.z + v.w;
}
)";
    // 256 threads, 8 warps, one ld.global.v2/v4 per warp.
    //   float2: a warp reads 32 x 8 = 256 contiguous bytes = 8 sectors; 8 requests -> 64 (ideal 64)
    //   float4: 32 x 16 = 512 bytes = 16 sectors; 8 requests -> 128 (ideal 128)
    struct Case {
        const char* kernel;
        const char* marker;
        std::uint64_t sectors;
        std::uint32_t bytes;
    };
    for (const Case& c : {Case{"ld_vec2", "// LOAD2", 64, 8}, Case{"ld_vec4", "// LOAD4", 128, 16}}) {
        SCOPED_TRACE(c.kernel);
        auto r = profiled(src, c.kernel, {buffer("in", iota(256 * 4)), buffer("out", std::vector<float>(256))},
                          {bufArg(0), bufArg(1)}, {1}, {256});
        ASSERT_TRUE(r.report.profile);
        const auto l = lineAt(*r.report.profile, src, c.marker);
        EXPECT_EQ(l.counters.global_ld_requests, 8u);
        EXPECT_EQ(l.counters.global_ld_sectors, c.sectors);
        EXPECT_EQ(l.extras.global_ld_ideal_sectors, c.sectors);
        EXPECT_EQ(l.extras.global_ld_bytes, c.bytes);
        EXPECT_EQ(l.extras.global_ld_stride_bytes, c.bytes);
    }
}

TEST(ProfileCounters, SharedTransposeWithAndWithoutPadding)
{
    KW_REQUIRE_NVRTC();
    // One 32 x 32 block: 32 warps, warp y holds row y (x = lane).
    // WRITE_TILE: lane x writes word 32y + x (padded: 33y + x): bank (y + x) mod 32 or
    //   x, all 32 banks distinct -> 1 wavefront per request: 32 requests, 32 wavefronts.
    // READ_TILE: lane x reads tile[x][y], word 32x + y: every lane bank y with a distinct
    //   word -> 32 wavefronts per request, 32 x 32 = 1024 (a 32-way conflict).
    //   Padded: word 33x + y, bank (x + y) mod 32, all distinct -> 1 per request, 32.
    // The global sides are coalesced: 32 requests of 4 sectors = 128 sectors each.
    for (int pad : {0, 1}) {
        SCOPED_TRACE(testing::Message() << "pad " << pad);
        const std::string src = transposeSource(pad);
        auto r = profiled(src, "transpose", {buffer("in", iota(1024)), buffer("out", std::vector<float>(1024))},
                          {bufArg(0), bufArg(1)}, {1}, {32, 32});
        ASSERT_TRUE(r.report.profile);
        const auto& p = *r.report.profile;
        const auto w = lineAt(p, src, "// WRITE_TILE");
        EXPECT_EQ(w.counters.shared_st_requests, 32u);
        EXPECT_EQ(w.counters.shared_st_wavefronts, 32u);
        EXPECT_EQ(w.extras.shared_st_ideal_wavefronts, 32u);
        EXPECT_EQ(w.counters.global_ld_requests, 32u);
        EXPECT_EQ(w.counters.global_ld_sectors, 128u);
        const auto rd = lineAt(p, src, "// READ_TILE");
        EXPECT_EQ(rd.counters.shared_ld_requests, 32u);
        EXPECT_EQ(rd.counters.shared_ld_wavefronts, pad ? 32u : 1024u);
        EXPECT_EQ(rd.extras.shared_ld_ideal_wavefronts, 32u);
        EXPECT_EQ(rd.extras.worst_bank_conflict, pad ? 1u : 32u);
        EXPECT_EQ(rd.extras.shared_ld_stride_bytes, pad ? 132u : 128u);
        EXPECT_EQ(rd.counters.global_st_requests, 32u);
        EXPECT_EQ(rd.counters.global_st_sectors, 128u);
        EXPECT_EQ(p.totals.shared_ld_wavefronts - p.totals.shared_ld_requests, pad ? 0u : 992u);
        const auto out = values<float>(r.buffers[1]);
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x)
                ASSERT_EQ(out[y * 32 + x], float(x * 32 + y));
    }
}

TEST(ProfileCounters, SharedBroadcastAndStridedWords)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void shared_stride(const float* in, float* out, int stride) {
    __shared__ float s[1024];
    for (int k = threadIdx.x; k < 1024; k += 32) s[k] = in[k];   // FILL
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * stride];                 // READ
    out[32 + threadIdx.x] = s[7];                               // BROADCAST
}
)";
    // One warp of 32. FILL: 32 iterations, lane l writes word 32k + l: 1 wavefront each.
    // BROADCAST: all lanes read word 7: one word serves them all -> 1 wavefront.
    // READ, lane l reads word l * stride:
    //   stride 1:  banks 0..31 -> 1 wavefront
    //   stride 2:  words 0, 2, ..., 62: banks 0, 2, ..., 30 twice each -> 2 wavefronts
    //   stride 32: bank 0 with 32 distinct words -> 32
    //   stride 33: bank l -> 1
    struct Case {
        int stride;
        std::uint64_t wavefronts;
    };
    for (const Case& c : {Case{1, 1}, Case{2, 2}, Case{32, 32}, Case{33, 1}}) {
        SCOPED_TRACE(testing::Message() << "stride " << c.stride);
        auto r = profiled(src, "shared_stride", {buffer("in", iota(1024)), buffer("out", std::vector<float>(64))},
                          {bufArg(0), bufArg(1), scalar<int>(c.stride)}, {1}, {32});
        ASSERT_TRUE(r.report.profile);
        const auto& p = *r.report.profile;
        const auto fill = lineAt(p, src, "// FILL");
        EXPECT_EQ(fill.counters.shared_st_requests, 32u);
        EXPECT_EQ(fill.counters.shared_st_wavefronts, 32u);
        const auto rd = lineAt(p, src, "// READ");
        EXPECT_EQ(rd.counters.shared_ld_requests, 1u);
        EXPECT_EQ(rd.counters.shared_ld_wavefronts, c.wavefronts);
        EXPECT_EQ(rd.extras.worst_bank_conflict, std::uint32_t(c.wavefronts));
        EXPECT_EQ(rd.extras.shared_ld_stride_bytes, std::uint32_t(4 * c.stride));
        const auto b = lineAt(p, src, "// BROADCAST");
        EXPECT_EQ(b.counters.shared_ld_requests, 1u);
        EXPECT_EQ(b.counters.shared_ld_wavefronts, 1u);
        EXPECT_EQ(b.extras.worst_bank_conflict, 1u);
        const auto out = values<float>(r.buffers[1]);
        for (int l = 0; l < 32; ++l)
            ASSERT_EQ(out[l], float((l * c.stride) % 1024));
        EXPECT_EQ(out[40], 7.0f);
    }
}

TEST(ProfileCounters, SharedEightByteAccessesInHalfWarps)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void shared_double(const double* in, double* out, int stride) {
    __shared__ double s[1024];
    for (int k = threadIdx.x; k < 1024; k += 32) s[k] = in[k];
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * stride];                 // READ
}
)";
    // 8-byte accesses: two phases of 16 lanes (128 bytes each); lane l reads words
    // 2 l stride and 2 l stride + 1. Ideal: 2 wavefronts (one per phase).
    //   stride 1:  a phase covers words 0..31 (or 32..63): every bank once -> 1 + 1 = 2
    //   stride 2:  lanes 0..7 take banks 4l, 4l+1; lanes 8..15 the same banks with
    //              other words -> 2 per phase, 4 in all (2-way)
    //   stride 16: words 32 l, 32 l + 1: banks 0 and 1 hold 16 words each -> 16 per phase, 32
    struct Case {
        int stride;
        std::uint64_t wavefronts;
        std::uint32_t worst;
    };
    for (const Case& c : {Case{1, 2, 1}, Case{2, 4, 2}, Case{16, 32, 16}}) {
        SCOPED_TRACE(testing::Message() << "stride " << c.stride);
        std::vector<double> in(1024);
        for (int i = 0; i < 1024; ++i)
            in[i] = i;
        auto r = profiled(src, "shared_double", {buffer("in", in), buffer("out", std::vector<double>(32))},
                          {bufArg(0), bufArg(1), scalar<int>(c.stride)}, {1}, {32});
        ASSERT_TRUE(r.report.profile);
        const auto rd = lineAt(*r.report.profile, src, "// READ");
        EXPECT_EQ(rd.counters.shared_ld_requests, 1u);
        EXPECT_EQ(rd.counters.shared_ld_wavefronts, c.wavefronts);
        EXPECT_EQ(rd.extras.shared_ld_ideal_wavefronts, 2u);
        EXPECT_EQ(rd.extras.worst_bank_conflict, c.worst);
        EXPECT_EQ(rd.extras.shared_bytes, 8u);
    }
}

TEST(ProfileCounters, DivergentAndUniformBranches)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void branches(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x & 1) {               // ODD
        v = v * 3.0f;                    // ODD_BODY
        out[i + 512] = v;                // ODD_STORE
    }
    if (blockIdx.x & 1) {                // BLOCK
        v = v + 1.0f;                    // BLOCK_BODY
        out[i + 1024] = v;
    }
    out[i] = v;
}
)";
    // 2 blocks of 256 threads: 16 warps. Each warp runs each `if` once: one branch per warp
    // and line, 16 branches per line.
    //   ODD: odd lanes go one way, even lanes the other in every warp: 16 divergent.
    //   BLOCK: all lanes of a warp share blockIdx.x: 0 divergent.
    // ODD_BODY runs in all 16 warps with 16 lanes each: thread_inst = 16 x inst_executed.
    // BLOCK_BODY runs in block 1's 8 warps with all 32 lanes.
    auto r = profiled(src, "branches", {buffer("in", iota(512)), buffer("out", std::vector<float>(1536))},
                      {bufArg(0), bufArg(1)}, {2}, {256});
    ASSERT_TRUE(r.report.profile);
    const auto& p = *r.report.profile;
    const auto odd = lineAt(p, src, "// ODD\n");
    EXPECT_EQ(odd.extras.branches, 16u);
    EXPECT_EQ(odd.counters.divergent_branches, 16u);
    const auto blk = lineAt(p, src, "// BLOCK\n");
    EXPECT_EQ(blk.extras.branches, 16u);
    EXPECT_EQ(blk.counters.divergent_branches, 0u);
    const auto oddBody = lineAt(p, src, "// ODD_BODY");
    EXPECT_GT(oddBody.counters.inst_executed, 0u);
    EXPECT_EQ(oddBody.counters.inst_executed % 16, 0u);
    EXPECT_EQ(oddBody.counters.thread_inst_executed, 16 * oddBody.counters.inst_executed);
    const auto blkBody = lineAt(p, src, "// BLOCK_BODY");
    EXPECT_EQ(blkBody.counters.inst_executed % 8, 0u);
    EXPECT_EQ(blkBody.counters.thread_inst_executed, 32 * blkBody.counters.inst_executed);
    EXPECT_EQ(p.totals.divergent_branches, 16u);
    // ODD_STORE: the 16 odd lanes of each warp write every other float of the warp's
    // 128-byte window (aligned: 512 floats in, warps 128 bytes apart): 4 sectors for 64
    // distinct bytes (ideal 2). 16 requests -> 64 sectors, ideal 32, 256 lanes.
    const auto oddStore = lineAt(p, src, "// ODD_STORE");
    EXPECT_EQ(oddStore.counters.global_st_requests, 16u);
    EXPECT_EQ(oddStore.counters.global_st_sectors, 64u);
    EXPECT_EQ(oddStore.extras.global_st_ideal_sectors, 32u);
    EXPECT_EQ(oddStore.extras.global_st_lanes, 256u);
    EXPECT_EQ(oddStore.extras.global_st_stride_bytes, 4u); // per lane, counted across the inactive ones
}

TEST(ProfileCounters, LocalArrayIndexedAtRunTime)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void local_array(const int* idx, float* out) {
    volatile float a[32];
    for (int k = 0; k < 32; ++k) a[k] = k * 0.5f;                // FILL_LOCAL
    out[threadIdx.x] = a[idx[threadIdx.x]];                      // READ_LOCAL
}
)";
    // 64 threads, 2 warps. The volatile array lives in local memory; each warp stores
    // 32 elements one instruction at a time (32 st.local) and loads one element with
    // a run-time index (1 ld.local): 64 local stores, 2 local loads.
    std::vector<int> idx(64);
    for (int i = 0; i < 64; ++i)
        idx[i] = (i * 7) % 32;
    auto r = profiled(src, "local_array", {buffer("idx", idx), buffer("out", std::vector<float>(64))},
                      {bufArg(0), bufArg(1)}, {1}, {64});
    ASSERT_TRUE(r.report.profile);
    const auto& p = *r.report.profile;
    const auto fill = lineAt(p, src, "// FILL_LOCAL");
    EXPECT_EQ(fill.counters.local_st_requests, 64u);
    EXPECT_EQ(fill.counters.local_ld_requests, 0u);
    const auto rd = lineAt(p, src, "// READ_LOCAL");
    EXPECT_EQ(rd.counters.local_ld_requests, 2u);
    EXPECT_EQ(rd.counters.global_ld_requests, 2u);
    EXPECT_EQ(rd.counters.global_st_requests, 2u);
    EXPECT_EQ(p.totals.local_st_requests, 64u);
    EXPECT_EQ(p.totals.local_ld_requests, 2u);
    // Local memory is no global traffic.
    EXPECT_EQ(p.totals.global_st_requests, 2u);
    const auto out = values<float>(r.buffers[1]);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(out[i], idx[i] * 0.5f);
}

TEST(ProfileCounters, AtomicsCountAsAtomicsInEverySpace)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void atomics(float* out, int* counter) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, 1);                          // SHARED_ATOMIC
    atomicAdd(counter, 1);                     // GLOBAL_ATOMIC
    atomicAdd(&out[threadIdx.x], 1.0f);        // SPREAD_ATOMIC
    __syncthreads();
    if (threadIdx.x == 0) counter[1] = s;
}
)";
    // 256 threads, 8 warps: each atomic line is one atom/red per warp -> 8 requests, none of
    // them loads or stores. Lanes: 256 per line; distinct addresses per request: 1 for the
    // shared and the global counter (8 in all), 32 for the spread one (256).
    auto r = profiled(src, "atomics", {buffer("out", std::vector<float>(256)), buffer("counter", std::vector<int>(2))},
                      {bufArg(0), bufArg(1)}, {1}, {256});
    ASSERT_TRUE(r.report.profile);
    const auto& p = *r.report.profile;
    struct Case {
        const char* marker;
        std::uint64_t addresses;
    };
    for (const Case& c : {Case{"// SHARED_ATOMIC", 8}, Case{"// GLOBAL_ATOMIC", 8}, Case{"// SPREAD_ATOMIC", 256}}) {
        SCOPED_TRACE(c.marker);
        const auto l = lineAt(p, src, c.marker);
        EXPECT_EQ(l.counters.atomic_requests, 8u);
        EXPECT_EQ(l.extras.atomic_lanes, 256u);
        EXPECT_EQ(l.extras.atomic_addresses, c.addresses);
        EXPECT_EQ(l.counters.global_ld_requests + l.counters.global_st_requests + l.counters.shared_ld_requests
                      + l.counters.shared_st_requests,
                  0u);
    }
    EXPECT_EQ(p.totals.atomic_requests, 24u);
    const auto counter = values<int>(r.buffers[1]);
    EXPECT_EQ(counter[0], 256);
    EXPECT_EQ(counter[1], 256);
}

TEST(ProfileCounters, CaptureRecordsTheLanesOfAStridedLoad)
{
    KW_REQUIRE_NVRTC();
    kw::AccessCaptureRequest cap;
    cap.line = lineOf(kStrided, "// LOAD\n");
    cap.block = {0, 0, 0};
    cap.warp = 1;
    // Stride 32 floats: warp 1's lane l reads element 32 (32 + l), at 128 (32 + l) bytes
    // from the buffer's start, which is 256-byte aligned.
    auto r = profiled(kStrided, "ld_strided", {buffer("in", iota(256 * 32)), buffer("out", std::vector<float>(256))},
                      {bufArg(0), bufArg(1), scalar<int>(32), scalar<int>(0)}, {1}, {256}, cap);
    ASSERT_TRUE(r.report.profile);
    const auto& samples = r.report.profile->samples;
    ASSERT_EQ(samples.size(), 1u); // the line runs once per warp
    const kw::AccessSample& s = samples[0];
    EXPECT_EQ(s.space, kw::AccessSample::Space::Global);
    EXPECT_FALSE(s.store);
    EXPECT_FALSE(s.atomic);
    EXPECT_NE(s.instruction.find("ld.global"), std::string::npos) << s.instruction;
    const std::uint64_t start = s.lanes[0].address - 128 * 32;
    EXPECT_EQ(start % 256, 0u);
    for (int l = 0; l < 32; ++l) {
        EXPECT_TRUE(s.lanes[l].active);
        EXPECT_EQ(s.lanes[l].bytes, 4u);
        EXPECT_EQ(s.lanes[l].address, start + 128 * std::uint64_t(32 + l)) << l;
    }
}

TEST(ProfileCounters, ModuleVariablesAndBuffersAre256ByteAligned)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
__device__ char odd[3] = {1, 2, 3};
__device__ float table[64];
__constant__ float scale[5] = {1, 2, 3, 4, 5};
extern "C" __global__ void read_table(const char* in, float* out) {
    out[threadIdx.x] = table[threadIdx.x] * scale[threadIdx.x % 5] + odd[threadIdx.x % 3] + in[threadIdx.x];  // READ
}
)";
    kw::AccessCaptureRequest cap;
    cap.line = lineOf(src, "// READ");
    cap.block = {0, 0, 0}; // Dim3's default is (1, 1, 1)
    auto r
        = profiled(src, "read_table", {buffer("in", std::vector<char>(64, 1)), buffer("out", std::vector<float>(64))},
                   {bufArg(0), bufArg(1)}, {1}, {64}, cap);
    ASSERT_TRUE(r.report.profile);
    int globals = 0;
    for (const auto& s : r.report.profile->samples) {
        if (s.space != kw::AccessSample::Space::Global || s.store)
            continue;
        // Lane 0 reads element 0 of table, odd, in (scale is constant memory, not sampled
        // as global but still at an aligned address): each the start of its allocation.
        EXPECT_EQ(s.lanes[0].address % 256, 0u) << s.instruction;
        ++globals;
    }
    EXPECT_GE(globals, 3) << "table, odd and in";
}

TEST(ProfileCounters, ProfilingChangesNoOutputAndIsAbsentUnlessAsked)
{
    KW_REQUIRE_NVRTC();
    const std::string src = transposeSource(0);
    auto with = profiled(src, "transpose", {buffer("in", iota(1024)), buffer("out", std::vector<float>(1024))},
                         {bufArg(0), bufArg(1)}, {1}, {32, 32});
    auto without = profiled(src, "transpose", {buffer("in", iota(1024)), buffer("out", std::vector<float>(1024))},
                            {bufArg(0), bufArg(1)}, {1}, {32, 32}, std::nullopt, false);
    ASSERT_TRUE(with.report.profile);
    EXPECT_FALSE(without.report.profile.has_value());
    ASSERT_EQ(with.buffers.size(), without.buffers.size());
    for (std::size_t i = 0; i < with.buffers.size(); ++i)
        EXPECT_EQ(with.buffers[i].data.bytes(), without.buffers[i].data.bytes()) << with.buffers[i].name;
    // The lines sum to the totals (every instruction of this kernel has a line), all in
    // the source file as the document names it (no compiling process's folder before it).
    kw::ProfileCounters sum;
    for (const auto& l : with.report.profile->lines) {
        sum += l.counters;
        EXPECT_EQ(l.file, "kernel.cu");
    }
    EXPECT_EQ(sum, with.report.profile->totals);
}

TEST(ProfileCounters, RepeatsAreNotCounted)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kStrided, "ld_strided");
    ASSERT_TRUE(img);
    std::vector<kw::BufferArg> bufs{buffer("in", iota(256)), buffer("out", std::vector<float>(256))};
    kw::LaunchConfig c = config({1}, {256});
    c.warmup = 1;
    c.repeats = 3;
    c.profile.enabled = true;
    kw::SimBackend sim;
    auto rep = sim.launch(*img, bufs, {bufArg(0), bufArg(1), scalar<int>(1), scalar<int>(0)}, c);
    ASSERT_TRUE(rep.ok) << faultMessage(rep.fault);
    ASSERT_TRUE(rep.profile);
    // One launch's worth: 8 warps, one load each.
    EXPECT_EQ(rep.profile->totals.global_ld_requests, 8u);
}
