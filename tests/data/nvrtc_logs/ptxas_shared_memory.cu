__global__ void k(char* o) { __shared__ char big[200000]; big[threadIdx.x] = 1; __syncthreads(); o[0] = big[5]; }
