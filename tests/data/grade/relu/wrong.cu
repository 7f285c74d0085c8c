__global__ void relu(int n, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] > 0.5f ? x[i] : 0.0f; // planted
}
