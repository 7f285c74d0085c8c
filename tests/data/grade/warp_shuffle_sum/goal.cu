__global__ void warp_sums(int n, const float* x, float* sums)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncwarp();
    if ((threadIdx.x & 31) == 0 && i < n) {
        float v = 0.0f;
        for (int k = 0; k < 32; ++k)
            v += s[threadIdx.x + k];
        sums[i / 32] = v;
    }
}
