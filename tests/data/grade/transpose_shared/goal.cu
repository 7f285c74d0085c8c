#define TILE 32
__global__ void transpose(int rows, int cols, const float* in, float* out)
{
    __shared__ float tile[TILE][TILE];
    int col = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && col < cols)
        tile[threadIdx.y][threadIdx.x] = in[r * cols + col];
    __syncthreads();
    // The block writes the transposed tile: x now runs along the rows of `in`.
    int outCol = blockIdx.y * TILE + threadIdx.x;
    int outRow = blockIdx.x * TILE + threadIdx.y;
    if (outRow < cols && outCol < rows)
        out[outRow * rows + outCol] = tile[threadIdx.x][threadIdx.y];
}
