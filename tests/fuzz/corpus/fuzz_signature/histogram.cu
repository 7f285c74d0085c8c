#define BINS 256

// Counts the bytes of `data` into 256 bins. Each block first counts into its
// own histogram in shared memory (fast atomics, contention only inside the
// block), then adds its non-zero bins to the global histogram: 256 global
// atomics per block instead of one per byte.
__global__ void histogram(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    // Grid-stride loop: a fixed grid covers any n.
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}

k<float, 128>