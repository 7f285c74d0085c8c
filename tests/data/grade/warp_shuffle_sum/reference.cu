__global__ void warp_sums(int n, const float* x, float* sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    // Every lane takes part in the shuffles, also those past n.
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0 && i < n)
        sums[i / 32] = v;
}
