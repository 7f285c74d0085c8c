#define TAPS 7
__global__ void convolve(int n, const float* x, const float* w, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < TAPS; ++k) {
        int j = i + k - TAPS / 2;
        if (j >= 0 && j < n)
            sum += w[k] * x[j];
    }
    y[i] = sum;
}
