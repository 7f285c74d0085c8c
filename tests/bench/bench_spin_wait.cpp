// The simulator on a spin-waiting kernel: a block sum over 128-thread cooperative-groups
// tiles (four warps that meet through shared memory inside cooperative_groups) against
// the same sum written with __syncthreads. Prints both times and their ratio:
//   sim spin_wait cg_ms=<ms> syncthreads_ms=<ms> ratio=<r> check=<ok|FAILED>
// Usage: bench_spin_wait [n]   (default 2^18 elements, 256 threads per block)
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

using namespace kwtest;

const char* kCgSource = R"(#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void cg_sum(const float* in, float* partial, int n)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = cg::reduce(tile, i < n ? in[i] : 0.0f, cg::plus<float>());
    if (tile.thread_rank() == 0) partial[blockIdx.x * 2 + tile.meta_group_rank()] = s;
}
)";

const char* kSyncSource = R"(__global__ void sync_sum(const float* in, float* partial, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int d = 64; d > 0; d /= 2) {  // within each half of 128 threads, as the tiles do
        int half = threadIdx.x % 128;
        if (half < d) s[threadIdx.x] += s[threadIdx.x + d];
        __syncthreads();
    }
    if (threadIdx.x % 128 == 0) partial[blockIdx.x * 2 + threadIdx.x / 128] = s[threadIdx.x];
}
)";

} // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 18;
    std::string log;
    auto cg = compileCuda(kCgSource, "cg_sum", log);
    auto sync = compileCuda(kSyncSource, "sync_sum", log);
    if (!cg || !sync) {
        std::fprintf(stderr, "bench_spin_wait: %s\n", log.c_str());
        return 2;
    }
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i)
        in[i] = float(i % 5);
    const unsigned blocks = unsigned((n + 255) / 256);
    kw::SimBackend sim;
    auto run = [&](const kw::KernelImage& k, bool& ok) {
        std::vector<kw::BufferArg> bufs{buffer("in", in), buffer("partial", std::vector<float>(blocks * 2))};
        kw::LaunchConfig c = config({blocks}, {256}, 0, 600);
        c.warmup = 0;
        c.repeats = 3;
        const kw::LaunchReport rep = sim.launch(k, bufs, {bufArg(0), bufArg(1), scalar<int>(n)}, c);
        const auto p = values<float>(bufs[1]);
        const double total = std::accumulate(p.begin(), p.end(), 0.0);
        const double expected = std::accumulate(in.begin(), in.end(), 0.0);
        ok = rep.ok && std::fabs(total - expected) < 1e-6 * expected;
        return rep.timings.medianMs;
    };
    bool cgOk = false, syncOk = false;
    const double cgMs = run(*cg, cgOk);
    const double syncMs = run(*sync, syncOk);
    std::printf("sim spin_wait n=%d cg_ms=%.2f syncthreads_ms=%.2f ratio=%.2f check=%s\n", n, cgMs, syncMs,
                cgMs / syncMs, cgOk && syncOk ? "ok" : "FAILED");
    return cgOk && syncOk ? 0 : 1;
}
