#define THREADS 128
__global__ void layer_norm(int rows, int cols, const float* x, float* y)
{
    __shared__ float s[THREADS];
    const float* in = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        sum += in[c];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    const float mean = s[0] / cols;
    __syncthreads();
    // The variance from the deviations (two passes: no cancellation).
    sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        sum += (in[c] - mean) * (in[c] - mean);
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    const float scale = rsqrtf(s[0] / cols + 1e-5f);
    for (int c = threadIdx.x; c < cols; c += THREADS)
        out[c] = (in[c] - mean) * scale;
}
