__global__ void count_nonzero(int n, const int* x, int* count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] != 0)
        atomicAdd(count, 1);
}
