__global__ void polynomial(int n, const float* x, float* y, float c0, float c1, float c2, float c3)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = ((c3 * x[i] + c2) * x[i] + c1) * x[i] + c1; // planted
}
