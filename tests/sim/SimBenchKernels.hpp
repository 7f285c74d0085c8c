#pragma once
// The kernels the simulator is benchmarked on (tests/bench/bench_sim.cpp), which its
// tests also check for correctness.
#include <cstddef>
#include <vector>

namespace kwtest {

inline constexpr const char* kAddVectorsSource = R"(
extern "C" __global__ void add_vectors(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
})";

inline constexpr const char* kTiledMatmulSource = R"(
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
})";

inline constexpr const char* kMandelbrotSource = R"(
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
})";

// kMandelbrotSource's image computed on the host. Compiled with --fmad=false the
// kernel rounds every float operation on its own, as this loop does (the host build
// targets no FMA instructions), so the two agree in every pixel.
inline std::vector<int> mandelbrotReference(int w, int h, int maxit)
{
    std::vector<int> out(std::size_t(w) * std::size_t(h));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            volatile float cr = -2.0f + 3.0f * float(x) / float(w), ci = -1.5f + 3.0f * float(y) / float(h);
            float zr = 0, zi = 0;
            int it = 0;
            for (;;) {
                const volatile float rr = zr * zr, ii = zi * zi;
                if (!(it < maxit && rr + ii < 4.0f))
                    break;
                const volatile float t = rr - ii;
                const volatile float t2 = t + cr;
                const volatile float p = 2 * zr;
                const volatile float p2 = p * zi;
                zi = p2 + ci;
                zr = t2;
                it++;
            }
            out[std::size_t(y) * std::size_t(w) + std::size_t(x)] = it;
        }
    return out;
}

} // namespace kwtest
