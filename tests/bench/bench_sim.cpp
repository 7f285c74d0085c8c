// Times the sim backend on the benchmark kernels: add_vectors (n = 2^20),
// tiled matmul 256x256 and mandelbrot 512x512. One line per kernel:
//   sim <kernel> threads=<T> wall_s=<s> threads_per_s=<r> check=<ok|FAILED>
// Each kernel is launched once untimed, then timed; its whole output is then compared
// with the host's (check=FAILED and exit 1 otherwise; a failed launch is FAILED too).
// `native` (also in `all`): tiled matmul 256 on one simulator thread against a naive
// single-thread C++ loop of the same product, alternating rounds, best of each:
//   sim matmul_256_vs_native sim_1thread_s=<s> native_s=<s> ratio=<r> target<=4 <met|missed> check=<ok|FAILED>
// Usage: bench_sim [add_vectors|matmul|mandelbrot|native|all] [n]
#include "SimBenchKernels.hpp"
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
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

double secondsOf(const std::function<void()>& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The naive product the simulator is held against: one thread, the kernel's order of sums.
[[gnu::noinline]] void nativeMatmul(const float* A, const float* B, float* C, int n)
{
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            float s = 0;
            for (int k = 0; k < n; ++k)
                s += A[r * n + k] * B[k * n + c];
            C[r * n + c] = s;
        }
}

bool closeToProduct(const std::vector<float>& A, const std::vector<float>& B, const std::vector<float>& C, int n)
{
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            double e = 0;
            for (int k = 0; k < n; ++k)
                e += double(A[r * n + k]) * B[k * n + c];
            if (!(std::fabs(C[r * n + c] - e) <= 1e-3 * std::max(1.0, std::fabs(e))))
                return false;
        }
    return true;
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
        const bool ok = rep.ok && closeToProduct(A, B, values<float>(bufs[2]), n);
        report("matmul_256", double(n) * n, s, ok);
        allOk &= ok;
    }
    if (which == "all" || which == "native") {
        const int n = 256, rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
        std::vector<float> A(n * n), B(n * n), C(n * n);
        for (int i = 0; i < n * n; ++i) {
            A[i] = float(i % 7) - 3;
            B[i] = float(i % 5) * 0.25f;
        }
        kw::SimBackend one;
        one.setThreads(1);
        std::vector<kw::BufferArg> bufs;
        bool ok = true;
        double simBest = 1e30, nativeBest = 1e30;
        // Alternating rounds, so both sides see the same load; the best of each.
        for (int round = 0; round <= rounds; ++round) {
            bufs = {buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(n * n))};
            kw::LaunchReport rep;
            const double s = secondsOf([&] {
                rep = one.launch(*mm, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)},
                                 config({16, 16}, {16, 16}, 0, kTimeLimit));
            });
            std::fill(C.begin(), C.end(), -1.0f);
            const double c = secondsOf([&] { nativeMatmul(A.data(), B.data(), C.data(), n); });
            ok = ok && rep.ok && closeToProduct(A, B, values<float>(bufs[2]), n) && closeToProduct(A, B, C, n);
            if (round > 0) { // the first round warms both up
                simBest = std::min(simBest, s);
                nativeBest = std::min(nativeBest, c);
            }
        }
        const double ratio = simBest / nativeBest;
        std::printf("sim matmul_256_vs_native sim_1thread_s=%.4f native_s=%.4f ratio=%.2f target<=4 %s check=%s\n",
                    simBest, nativeBest, ratio, ratio <= 4 ? "met" : "missed", ok ? "ok" : "FAILED");
        std::fflush(stdout);
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
