// A whole program in the style of the vendor samples: macros and inline __device__
// helpers that the kernel uses, host code around them. Every device line must stay.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BIN_COUNT 64
#define UMUL(a, b) __umul24((a), (b))

typedef unsigned int uint;

inline __device__ void addByte(uint* s_ThreadBase, uint data)
{
    atomicAdd(&s_ThreadBase[UMUL(data, 1)], 1U);
}

inline __device__ void addWord(uint* s_ThreadBase, uint data)
{
    addByte(s_ThreadBase, (data >> 0) & 0x3FU);
    addByte(s_ThreadBase, (data >> 8) & 0x3FU);
}

__global__ void histogram64(uint* d_Histogram, const uint* d_Data, int n)
{
    __shared__ uint s_Hist[BIN_COUNT];
    for (int b = threadIdx.x; b < BIN_COUNT; b += blockDim.x)
        s_Hist[b] = 0;
    __syncthreads();
    for (int pos = UMUL(blockIdx.x, blockDim.x) + threadIdx.x; pos < n; pos += UMUL(blockDim.x, gridDim.x))
        addWord(s_Hist, d_Data[pos]);
    __syncthreads();
    for (int b = threadIdx.x; b < BIN_COUNT; b += blockDim.x)
        atomicAdd(&d_Histogram[b], s_Hist[b]);
}

static int checkResult(const std::vector<uint>& h, int n)
{
    long total = 0;
    for (uint v : h)
        total += v;
    return total == 2L * n ? 0 : 1;
}

int main()
{
    const int n = 1 << 16;
    std::vector<uint> data(n), hist(BIN_COUNT);
    for (int i = 0; i < n; ++i)
        data[i] = rand();
    uint *d_Data, *d_Hist;
    cudaMalloc(&d_Data, n * sizeof(uint));
    cudaMalloc(&d_Hist, BIN_COUNT * sizeof(uint));
    cudaMemcpy(d_Data, data.data(), n * sizeof(uint), cudaMemcpyHostToDevice);
    cudaMemset(d_Hist, 0, BIN_COUNT * sizeof(uint));
    histogram64<<<64, 256>>>(d_Hist, d_Data, n);
    cudaMemcpy(hist.data(), d_Hist, BIN_COUNT * sizeof(uint), cudaMemcpyDeviceToHost);
    printf("%s\n", checkResult(hist, n) ? "FAILED" : "PASSED");
    return 0;
}
