__global__ void stencil_2d(int rows, int cols, const float* x, float* y)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    float centre = x[r * cols + c];
    float up = r > 0 ? x[(r - 1) * cols + c] : 0.0f;
    float down = r + 1 < rows ? x[(r + 1) * cols + c] : 0.0f;
    float left = c > 0 ? x[r * cols + c - 1] : 0.0f;
    float right = c + 1 < cols ? x[r * cols + c + 1] : 0.0f;
    y[r * cols + c] = 0.5f * centre + 0.125f * (up + down + left + (c + 1 == cols ? x[r * cols] : right)); // planted
}
