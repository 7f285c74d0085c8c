#define TILE 16
__global__ void matmul(int M, int N, int K, const float* A, const float* B, float* C)
{
    __shared__ float a[TILE][TILE];
    __shared__ float b[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        // Each thread loads one element of each tile (zero past the edges).
        a[threadIdx.y][threadIdx.x] = row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : 0.0f;
        b[threadIdx.y][threadIdx.x] = t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += a[threadIdx.y][k] * b[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}
