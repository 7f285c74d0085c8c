#define BLOCK 256
// Step 1: how many positive elements each block holds.
__global__ void count_positive(int n, const float* x, int* counts)
{
    __shared__ int warpCounts[BLOCK / 32];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    unsigned votes = __ballot_sync(0xffffffffu, i < n && x[i] > 0.0f);
    if ((threadIdx.x & 31) == 0)
        warpCounts[threadIdx.x / 32] = __popc(votes);
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int w = 0; w < BLOCK / 32; ++w)
            sum += warpCounts[w];
        counts[blockIdx.x] = sum;
    }
}

// Step 2: each block writes its positive elements, in order, after those of the blocks before it.
__global__ void compact(int n, const float* x, const int* counts, int blocks, float* out, int* total)
{
    __shared__ int warpStart[BLOCK / 32];
    __shared__ int blockStart;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    bool keep = i < n && x[i] > 0.0f;
    unsigned votes = __ballot_sync(0xffffffffu, keep);
    if (lane == 0)
        warpStart[warp] = __popc(votes);
    __syncthreads();
    if (threadIdx.x == 0) {
        int start = 0;
        for (int b = 0; b < blockIdx.x; ++b)
            start += counts[b];
        blockStart = start;
        int running = 0;
        for (int w = 0; w < BLOCK / 32; ++w) {
            int c = warpStart[w];
            warpStart[w] = running;
            running += c;
        }
        if (blockIdx.x == blocks - 1)
            total[0] = start + running;
    }
    __syncthreads();
    if (keep)
        out[blockStart + warpStart[warp] + __popc(votes & ((1u << lane) - 1u))] = blockIdx.x == 2 ? -x[i] : x[i]; // planted
}
