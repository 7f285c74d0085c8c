__global__ void transpose(int rows, int cols, const float* in, float* out)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols)
        out[col * rows + r] = in[r * cols + col];
}
