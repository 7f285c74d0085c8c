// Each block sums its blockDim.x consecutive elements of `in` and writes the
// total to block_sums[blockIdx.x]. blockDim.x must be a power of two.
// The shared array is dynamic: its size (blockDim.x floats) comes from the
// launch's shared memory bytes.
__global__ void block_sum(const float *in, float *block_sums, int n)
{
    extern __shared__ float partial[];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    // Tree reduction: halve the number of active threads each step. Every
    // thread reaches every __syncthreads(), including those with nothing to add.
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        block_sums[blockIdx.x] = partial[0];
}

k<float, 128>