#pragma once
// Profiled simulator launches for the profile's tests: compile, launch with
// LaunchConfig::profile, find a source line by a marker comment.
#include "SimTestSupport.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace kwtest {

// The profile's entry for the marked line (counters all zero when the line has none).
inline kw::LineProfile lineAt(const kw::KernelProfile& p, const std::string& source, const std::string& marker)
{
    const int line = lineOf(source, marker);
    for (const auto& l : p.lines)
        if (l.line == line)
            return l;
    ADD_FAILURE() << "no profile for line " << line << " (" << marker << ")";
    return {};
}

struct Run {
    kw::LaunchReport report;
    std::vector<kw::BufferArg> buffers;
};

inline Run profiled(const std::string& source, const std::string& kernel, std::vector<kw::BufferArg> buffers,
                    const std::vector<kw::LaunchArg>& args, kw::Dim3 grid, kw::Dim3 block,
                    std::optional<kw::AccessCaptureRequest> capture = std::nullopt, bool profile = true,
                    unsigned threads = 0) // 0: the simulator's default
{
    Run r;
    r.buffers = std::move(buffers);
    auto img = compile(source, kernel);
    if (!img)
        return r;
    if (std::getenv("KW_DUMP_PTX"))
        std::fprintf(stderr, "%s\n", img->ptx.c_str());
    kw::LaunchConfig c = config(grid, block);
    c.profile.enabled = profile;
    c.profile.capture = std::move(capture);
    kw::SimBackend sim;
    if (threads)
        sim.setThreads(threads);
    r.report = sim.launch(*img, r.buffers, args, c);
    EXPECT_TRUE(r.report.ok) << faultMessage(r.report.fault);
    if (profile)
        EXPECT_TRUE(r.report.profile.has_value());
    return r;
}

inline std::vector<float> iota(std::size_t n)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = float(i);
    return v;
}

// Loads (ld_strided) or stores (st_strided) at in/out[i * stride + offset].
inline const std::string kStrided = R"(
extern "C" __global__ void ld_strided(const float* in, float* out, int stride, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i * stride + offset];   // LOAD
    out[i] = v;                          // STORE
}
extern "C" __global__ void st_strided(const float* in, float* out, int stride, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];                     // LOAD_ST
    out[i * stride + offset] = v;        // STORE_ST
}
)";

// A 32 x 32 tile through shared memory, its rows padded by `pad` floats.
inline std::string transposeSource(int pad)
{
    return R"(
extern "C" __global__ void transpose(const float* in, float* out) {
    __shared__ float tile[32][32 + )"
        + std::to_string(pad) + R"(];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];        // WRITE_TILE
    __syncthreads();
    out[y * 32 + x] = tile[x][y];       // READ_TILE
}
)";
}

} // namespace kwtest
