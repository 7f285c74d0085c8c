// Writes far outside c: an illegal address on a GPU, a memory fault on the simulator.
__global__ void add_2d(int rows, int cols, const float* a, const float* b, float* c)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols)
        c[(r * cols + col) + (1 << 28)] = a[r * cols + col] + b[r * cols + col];
}
