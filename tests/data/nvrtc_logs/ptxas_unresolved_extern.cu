extern __device__ int f();
__global__ void k(int* o) { o[0] = f(); }
