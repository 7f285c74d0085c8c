#include <cstdio>
__global__ void oob(int* p, int n)
{
    p[threadIdx.x + 1] = n;
}
__global__ void mis(int* p)
{
    int* q = (int*)((char*)p + 1);
    q[threadIdx.x] = 1;
}
__global__ void race(int* p)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    p[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void uninit(int* p, const int* u)
{
    p[threadIdx.x] = u[threadIdx.x];
}
__global__ void bar(int* p)
{
    if (threadIdx.x < 16)
        __syncthreads();
    p[threadIdx.x] = 1;
}
__global__ void sh(int* p, int n)
{
    __shared__ int s[32];
    s[threadIdx.x + n] = 1;
    p[threadIdx.x] = s[threadIdx.x];
}
int main(int c, char** v)
{
    int k = v[1][0] - '0', *p, *u;
    cudaMalloc(&p, 64 * 4); cudaMalloc(&u, 64 * 4); cudaMemset(p, 0, 256);
    if (k == 0) oob<<<1, 64>>>(p, 64);
    if (k == 1) mis<<<1, 64>>>(p);
    if (k == 2) race<<<1, 64>>>(p);
    if (k == 3) uninit<<<1, 64>>>(p, u);
    if (k == 4) bar<<<1, 64>>>(p);
    if (k == 5) oob<<<1, 32>>>(p, 1);
    if (k == 6) sh<<<2, 32>>>(p, 4000);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
