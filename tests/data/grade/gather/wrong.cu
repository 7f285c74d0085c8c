__global__ void gather(int n, const float* x, const int* idx, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[idx[i] % 1024]; // planted
}
