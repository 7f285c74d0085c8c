// Times the sim backend on the issue's benchmark kernels: add_vectors (n = 2^20),
// tiled matmul 256x256 and mandelbrot 512x512. One line per kernel:
//   sim <kernel> threads=<T> wall_s=<s> threads_per_s=<r> check=<ok|FAILED>
// Usage: bench_sim [add_vectors|matmul|mandelbrot|all] [n]
#include "SimNvrtc.hpp"
#include "sim/SimBackend.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

template <class T> kw::BufferArg buffer(const std::string& name, const std::vector<T>& v) {
    kw::BufferArg b;
    b.name = name;
    b.data.bytes().resize(v.size() * sizeof(T));
    std::memcpy(b.data.bytes().data(), v.data(), b.data.bytes().size());
    return b;
}
template <class T> const T* view(const kw::BufferArg& b) { return reinterpret_cast<const T*>(b.data.bytes().data()); }
kw::LaunchArg buf(std::size_t i) { kw::LaunchArg a; a.isBuffer = true; a.buffer = i; return a; }
template <class T> kw::LaunchArg scalar(T v) {
    kw::LaunchArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
}

const char* kSource = R"(
extern "C" __global__ void add_vectors(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
    float s = 0;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = (r < n && t * TILE + threadIdx.x < n) ? A[r * n + t * TILE + threadIdx.x] : 0;
        Bs[threadIdx.y][threadIdx.x] = (c < n && t * TILE + threadIdx.y < n) ? B[(t * TILE + threadIdx.y) * n + c] : 0;
        __syncthreads();
        for (int k = 0; k < TILE; k++) s += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (r < n && c < n) C[r * n + c] = s;
}
extern "C" __global__ void mandelbrot(int* out, int w, int h, int maxit) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0, zi = 0;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}
)";

kw::LaunchConfig config(kw::Dim3 grid, kw::Dim3 block) {
    kw::LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.warmup = 0;
    c.repeats = 0;
    c.timeLimitSeconds = 120;
    return c;
}

void report(const char* kernel, double threads, double seconds, bool ok) {
    std::printf("sim %s threads=%.0f wall_s=%.4f threads_per_s=%.4g check=%s\n", kernel, threads, seconds,
                threads / seconds, ok ? "ok" : "FAILED");
    std::fflush(stdout);
}

template <class F> double timed(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    std::string log;
    auto add = kwtest::compileCuda(kSource, "add_vectors", log);
    auto mm = kwtest::compileCuda(kSource, "matmul", log);
    auto mb = kwtest::compileCuda(kSource, "mandelbrot", log);
    if (!add || !mm || !mb) {
        std::fprintf(stderr, "bench_sim: %s\n", log.c_str());
        return 2;
    }
    kw::SimBackend sim;
    bool allOk = true;
    if (which == "all" || which == "add_vectors") {
        const int n = argc > 2 ? std::atoi(argv[2]) : 1 << 20;
        std::vector<float> a(n), b(n);
        for (int i = 0; i < n; ++i) { a[i] = float(i); b[i] = 0.5f * float(i); }
        std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("c", std::vector<float>(n))};
        kw::LaunchReport rep;
        const double s = timed([&] {
            rep = sim.launch(*add, bufs, {buf(0), buf(1), buf(2), scalar<int>(n)},
                             config({unsigned((n + 255) / 256)}, {256}));
        });
        bool ok = rep.ok;
        for (int i = 0; ok && i < n; ++i) ok = view<float>(bufs[2])[i] == a[i] + b[i];
        report("add_vectors", n, s, ok);
        allOk &= ok;
    }
    if (which == "all" || which == "matmul") {
        const int n = 256;
        std::vector<float> A(n * n), B(n * n);
        for (int i = 0; i < n * n; ++i) { A[i] = float(i % 7) - 3; B[i] = float(i % 5) * 0.25f; }
        std::vector<kw::BufferArg> bufs{buffer("A", A), buffer("B", B), buffer("C", std::vector<float>(n * n))};
        kw::LaunchReport rep;
        const double s = timed([&] {
            rep = sim.launch(*mm, bufs, {buf(0), buf(1), buf(2), scalar<int>(n)}, config({16, 16}, {16, 16}));
        });
        bool ok = rep.ok;
        for (int r = 0; ok && r < n; r += 37)
            for (int c = 0; c < n; c += 41) {
                double e = 0;
                for (int k = 0; k < n; ++k) e += double(A[r * n + k]) * B[k * n + c];
                ok = ok && std::fabs(view<float>(bufs[2])[r * n + c] - e) <= 1e-3 * std::max(1.0, std::fabs(e));
            }
        report("matmul_256", double(n) * n, s, ok);
        allOk &= ok;
    }
    if (which == "all" || which == "mandelbrot") {
        const int w = 512, h = 512, maxit = 256;
        std::vector<kw::BufferArg> bufs{buffer("out", std::vector<int>(w * h, -1))};
        kw::LaunchReport rep;
        const double s = timed([&] {
            rep = sim.launch(*mb, bufs, {buf(0), scalar<int>(w), scalar<int>(h), scalar<int>(maxit)},
                             config({32, 32}, {16, 16}));
        });
        bool ok = rep.ok;
        for (int i = 0; ok && i < w * h; ++i) ok = view<int>(bufs[0])[i] >= 1 && view<int>(bufs[0])[i] <= maxit;
        report("mandelbrot_512", double(w) * h, s, ok);
        allOk &= ok;
    }
    return allOk ? 0 : 1;
}
