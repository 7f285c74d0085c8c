__global__ void scatter(int n, const float* x, const int* idx, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[idx[i]] = x[i];
}
