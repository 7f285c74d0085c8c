__device__ void f(int* p) {}
__device__ void f(double* p) {}
__global__ void k(float* x)
{
    f(x);
}
