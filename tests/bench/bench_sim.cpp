// Times the sim backend on the benchmark kernels: add_vectors (n = 2^20),
// tiled matmul 256x256 and mandelbrot 512x512. One line per kernel:
//   sim <kernel> threads=<T> wall_s=<s> threads_per_s=<r> check=<ok|FAILED>
// Each kernel is launched once untimed, then timed; its whole output is then compared
// with the host's (check=FAILED and exit 1 otherwise; a failed launch is FAILED too).
// Usage: bench_sim [add_vectors|matmul|mandelbrot|all] [n]
#include "SimBenchKernels.hpp"
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace kwtest;

constexpr double kTimeLimit = 120;

void report(const char* kernel, double threads, double seconds, bool ok)
{
    std::printf("sim %s threads=%.0f wall_s=%.4f threads_per_s=%.4g check=%s\n", kernel, threads, seconds,
                threads / seconds, ok ? "ok" : "FAILED");
    std::fflush(stdout);
}

// One untimed warm-up launch (as sim_vs_numba.py gives Numba), then the timed one on
// fresh buffers: reset() restores the inputs and outputs before each.
template <class R, class F> double warmedAndTimed(R&& reset, F&& f)
{
    reset();
    f();
    reset();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv)
{
    const std::string which = argc > 1 ? argv[1] : "all";
    std::string log;
    auto add = compileCuda(kAddVectorsSource, "add_vectors", log);
    auto mm = compileCuda(kTiledMatmulSource, "matmul", log);
    // Without fma contraction, so that every pixel can be compared with the host's image.
    auto mb = compileCuda(kMandelbrotSource, "mandelbrot", log, false, {"--fmad=false"});
    if (!add || !mm || !mb) {
        std::fprintf(stderr, "bench_sim: %s\n", log.c_str());
        return 2;
    }
    kw::SimBackend sim;
    bool allOk = true;
    if (which == "all" || which == "add_vectors") {
        const int n = argc > 2 ? std::atoi(argv[2]) : 1 << 20;
        std::vector<float> a(n), b(n);
        for (int i = 0; i < n; ++i) {
            a[i] = float(i);
            b[i] = 0.5f * float(i);
        }
        std::vector<kw::BufferArg> bufs;
        kw::LaunchReport rep;
        const double s = warmedAndTimed(
            [&] {
                bufs = {buffer("a", a), buffer("b", b), buffer("c", std::vector<float>(n))};
            },
            [&] {
                rep = sim.launch(*add, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
                                 config({unsigned((n + 255) / 256)}, {256}, 0, kTimeLimit));
            });
        bool ok = rep.ok;
        const auto c = values<float>(bufs[2]);
        for (int i = 0; ok && i < n; ++i)
            ok = c[i] == a[i] + b[i];
        report("add_vectors", n, s, ok);
        allOk &= ok;
    }
    if (which == "all" || which == "matmul") {
        const int n = 256;
        std::vector<float> A(n * n), B(n * n);
        for (int i = 0; i < n * n; ++i) {
            A[i] = float(i % 7) - 3;
            B[i] = float(i % 5) * 0.25f;
        }
        std::vector<kw::BufferArg> bufs;
        kw::LaunchReport rep;
        const double s = warmedAndTimed(
            [&] {
                bufs = {buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(n * n))};
            },
            [&] {
                rep = sim.launch(*mm, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
                                 config({16, 16}, {16, 16}, 0, kTimeLimit));
            });
        bool ok = rep.ok;
        const auto C = values<float>(bufs[2]);
        for (int r = 0; ok && r < n; ++r)
            for (int c = 0; c < n; ++c) {
                double e = 0;
                for (int k = 0; k < n; ++k)
                    e += double(A[r * n + k]) * B[k * n + c];
                ok = ok && std::fabs(C[r * n + c] - e) <= 1e-3 * std::max(1.0, std::fabs(e));
            }
        report("matmul_256", double(n) * n, s, ok);
        allOk &= ok;
    }
    if (which == "all" || which == "mandelbrot") {
        const int w = 512, h = 512, maxit = 256;
        std::vector<kw::BufferArg> bufs;
        kw::LaunchReport rep;
        const double s = warmedAndTimed(
            [&] { bufs = {buffer("out", std::vector<int>(w * h, -1))}; },
            [&] {
                rep = sim.launch(*mb, bufs, {bufArg(0), scalar<int>(w), scalar<int>(h), scalar<int>(maxit)},
                                 config({32, 32}, {16, 16}, 0, kTimeLimit));
            });
        bool ok = rep.ok;
        const auto out = values<int>(bufs[0]);
        ok = ok && out == mandelbrotReference(w, h, maxit);
        report("mandelbrot_512", double(w) * h, s, ok);
        allOk &= ok;
    }
    return allOk ? 0 : 1;
}
