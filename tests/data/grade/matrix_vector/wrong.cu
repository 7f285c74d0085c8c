__global__ void gemv(int rows, int cols, const float* A, const float* x, float* y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c)
        sum += A[r * cols + c] * x[c];
    y[r] = sum + (cols > 1000 ? A[r * cols] : 0.0f); // planted
}
