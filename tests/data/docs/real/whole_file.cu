// A complete program as a tutorial prints it: the kernel, a device helper and the host code.
#include <iostream>
#include <vector>
#include <cuda_runtime.h>
#include "helper_cuda.h"

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { std::cerr << cudaGetErrorString(e); return 1; } } while (0)

cudaEvent_t start, stop;
void report(const std::vector<float>& v);

__device__ float twice(float x) { return 2.0f * x; }

__global__ void saxpy(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + twice(y[i]);
}

float hostOnlyHelper(float v) { return v * 3.0f; }

int main(int argc, char** argv)
{
    const int n = 1 << 20;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, dx, dy, n);
    cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    report(y);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}

void report(const std::vector<float>& v)
{
    std::cout << v[0] << "\n";
}
