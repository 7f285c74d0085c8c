// The simulator's per-line profile against a plain run of the same kernels, side by
// side in one process: add_vectors (n = 2^20), tiled matmul 256x256, mandelbrot
// 512x512 and a 32x32-tile shared-memory transpose 1024x1024 (bank conflicts). Each
// kernel is launched once untimed, then plain and profiled alternately `rounds`
// times; the best time of each counts. One line per kernel:
//   profile <kernel> plain_s=<s> profiled_s=<s> ratio=<profiled/plain> check=<ok|FAILED>
// check: the profiled launch's output equals the plain one's and the profile counted
// the instructions the kernel ran. The goal is a ratio of at most 2.
// Usage: bench_profile [rounds] [threads] [kernel]   (default 5 rounds, every core, all kernels)
#include "SimBenchKernels.hpp"
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace kwtest;

constexpr double kTimeLimit = 120;

const char* kTransposeSource = R"(
extern "C" __global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
})";

struct Case {
    std::string name;
    const kw::KernelImage* image;
    std::function<std::vector<kw::BufferArg>()> buffers;
    std::vector<kw::LaunchArg> args;
    kw::Dim3 grid, block;
};

double seconds(kw::SimBackend& sim, const Case& c, bool profile, std::vector<kw::BufferArg>& bufs,
               kw::LaunchReport& rep)
{
    bufs = c.buffers();
    kw::LaunchConfig cfg = config(c.grid, c.block, 0, kTimeLimit);
    cfg.profile.enabled = profile;
    const auto t0 = std::chrono::steady_clock::now();
    rep = sim.launch(*c.image, bufs, c.args, cfg);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const unsigned threads = argc > 2 ? unsigned(std::atoi(argv[2])) : 0;
    const std::string only = argc > 3 ? argv[3] : "";
    std::string log;
    auto add = compileCuda(kAddVectorsSource, "add_vectors", log);
    auto mm = compileCuda(kTiledMatmulSource, "matmul", log);
    auto mb = compileCuda(kMandelbrotSource, "mandelbrot", log, false, {"--fmad=false"});
    auto tr = compileCuda(kTransposeSource, "transpose", log);
    if (!add || !mm || !mb || !tr) {
        std::fprintf(stderr, "bench_profile: %s\n", log.c_str());
        return 2;
    }
    const int n = 1 << 20, m = 256, w = 512, t = 1024;
    std::vector<float> a(n), b(n), A(m * m), B(m * m), T(t * t);
    for (int i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 0.5f * float(i);
    }
    for (int i = 0; i < m * m; ++i) {
        A[i] = float(i % 7) - 3;
        B[i] = float(i % 5) * 0.25f;
    }
    for (int i = 0; i < t * t; ++i)
        T[i] = float(i);
    const std::vector<Case> cases = {
        {"add_vectors",
         &*add,
         [&] {
             return std::vector<kw::BufferArg>{buffer("a", a), buffer("b", b), buffer("c", std::vector<float>(n))};
         },
         {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
         {unsigned(n / 256)},
         {256}},
        {"matmul_256",
         &*mm,
         [&] {
             return std::vector<kw::BufferArg>{buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(m * m))};
         },
         {bufArg(0), bufArg(1), bufArg(2), scalar<int>(m)},
         {16, 16},
         {16, 16}},
        {"mandelbrot_512",
         &*mb,
         [&] { return std::vector<kw::BufferArg>{buffer("out", std::vector<int>(w * w, -1))}; },
         {bufArg(0), scalar<int>(w), scalar<int>(w), scalar<int>(256)},
         {32, 32},
         {16, 16}},
        {"transpose_1024",
         &*tr,
         [&] {
             return std::vector<kw::BufferArg>{buffer("in", T), buffer("out", std::vector<float>(t * t))};
         },
         {bufArg(0), bufArg(1), scalar<int>(t)},
         {32, 32},
         {32, 32}},
    };
    kw::SimBackend sim;
    sim.setThreads(threads);
    bool allOk = true;
    for (const Case& c : cases) {
        if (!only.empty() && c.name.rfind(only, 0) != 0)
            continue;
        std::vector<kw::BufferArg> plainBufs, profBufs;
        kw::LaunchReport plainRep, profRep;
        seconds(sim, c, false, plainBufs, plainRep); // warm-up: page in the buffers and the module
        double plain = 1e30, profiled = 1e30;
        for (int r = 0; r < rounds; ++r) {
            plain = std::min(plain, seconds(sim, c, false, plainBufs, plainRep));
            profiled = std::min(profiled, seconds(sim, c, true, profBufs, profRep));
        }
        bool ok = plainRep.ok && profRep.ok && profRep.profile && !plainRep.profile
            && profRep.profile->totals.inst_executed > 0;
        for (std::size_t i = 0; ok && i < plainBufs.size(); ++i)
            ok = plainBufs[i].data.bytes() == profBufs[i].data.bytes();
        std::printf("profile %s plain_s=%.4f profiled_s=%.4f ratio=%.2f check=%s\n", c.name.c_str(), plain, profiled,
                    profiled / plain, ok ? "ok" : "FAILED");
        std::fflush(stdout);
        allOk &= ok;
    }
    return allOk ? 0 : 1;
}
