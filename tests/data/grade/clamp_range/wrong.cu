__global__ void clamp_range(int n, const float* x, float* y, float lo, float hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] < lo ? lo : (x[i] > hi ? x[i] : x[i]); // planted
}
