__global__ void oob(int* p, int n)
{
  p[threadIdx.x + n] = 1;
}
__global__ void mis(int* p, int n)
{
  int* q = (int*)((char*)p + 1);
  q[threadIdx.x] = n;
}
__global__ void race(int* p, int n)
{
  __shared__ int s[64];
  s[threadIdx.x] = n;
  p[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void uninit(int* p, int n)
{
  int* h = (int*)malloc(4 * n);
  p[threadIdx.x] = h[threadIdx.x % n];
  free(h);
}
__global__ void bar(int* p, int n)
{
  if (threadIdx.x < 16)
    __syncthreads();
  p[threadIdx.x] = n;
}
__global__ void sh(int* p, int n)
{
  __shared__ int s[32];
  s[threadIdx.x + n] = 1;
  p[threadIdx.x] = s[threadIdx.x % 32];
}
