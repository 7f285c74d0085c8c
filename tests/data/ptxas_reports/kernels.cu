__device__ __noinline__ float helper(float* p, int n) { float acc[64]; for (int i = 0; i < 64; ++i) acc[i] = p[i*n]; float s = 0; for (int i = 0; i < 64; ++i) s += acc[(i*7)%64]*acc[i]; return s; }
extern "C" __global__ void plain(float* a, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i < n) a[i] *= 2.f; }
template <typename T, int B> __global__ void scale(T* a, T s) { __shared__ T tile[B]; tile[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = tile[B-1-threadIdx.x]*s; }
template __global__ void scale<float, 128>(float*, float);
__global__ void heavy(float* a, int n) { a[threadIdx.x] = helper(a + threadIdx.x, n); }
__global__ void dyn(float* a) { extern __shared__ float s[]; s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[0]; printf("%f\n", s[0]); }
