__global__ void add_2d(int rows, int cols, const float* a, const float* b, float* c)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols)
        c[r * cols + col] = a[r * cols + col] + b[r * cols + col];
}
