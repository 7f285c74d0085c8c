// C = A * B with A (M x K), B (K x N) and C (M x N), all row-major.
//
// Each block computes one TILE x TILE tile of C. It walks along K one tile at a
// time: the block loads a tile of A and a tile of B into shared memory (one
// element per thread), waits for everyone, and multiplies the two tiles. Every
// element fetched from global memory is then used TILE times from shared memory.
#ifndef TILE
#define TILE 16
#endif

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int a_col = t * TILE + threadIdx.x;
        int b_row = t * TILE + threadIdx.y;
        // Threads outside the matrices load zeros, which add nothing to acc.
        As[threadIdx.y][threadIdx.x] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();   // the tiles are complete before anyone reads them

        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();   // everyone is done reading before the next load overwrites them
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}
