// Sum of the 32 values held by the threads of a warp. Each step adds the value
// of the lane `offset` places higher, read straight from its register; after
// five steps lane 0 holds the total. No shared memory, no __syncthreads().
__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Each block sums its blockDim.x consecutive elements of `in` into
// block_sums[blockIdx.x]. blockDim.x must be a multiple of 32 (whole warps).
__global__ void block_sum_shuffle(const float *in, float *block_sums, int n)
{
    __shared__ float warp_sums[32];   // one slot per warp: up to 1024 threads

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;

    float v = warp_sum(i < n ? in[i] : 0.0f);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();

    // The first warp adds up the per-warp sums with one more shuffle reduction.
    if (warp == 0) {
        int warps = blockDim.x / 32;
        v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            block_sums[blockIdx.x] = v;
    }
}

k<float, 128>