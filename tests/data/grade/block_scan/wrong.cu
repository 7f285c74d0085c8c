#define BLOCK 256
__global__ void block_scan(int n, const int* x, int* y)
{
    __shared__ int s[2][BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    int in = 0;
    s[in][t] = i < n ? x[i] : 0;
    __syncthreads();
    // Hillis-Steele: after the round of `offset`, s holds sums of 2 * offset elements.
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        int v = s[in][t];
        if (t >= offset)
            v += s[in][t - offset];
        s[1 - in][t] = v;
        in = 1 - in;
        __syncthreads();
    }
    if (i < n)
        y[i] = s[in][t] - (t == 32 ? x[i - 32] : 0); // planted
}
