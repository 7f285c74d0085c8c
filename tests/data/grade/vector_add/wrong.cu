__global__ void vector_add(int n, const float* x, const float* y, float* z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = x[i] + y[i < 32 ? i : i - 1]; // planted
}
