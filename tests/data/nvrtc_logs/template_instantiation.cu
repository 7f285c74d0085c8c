template <typename T>
__device__ T twice(T x)
{
    return x.value * 2;
}

template <typename T>
__global__ void scale(T* data)
{
    data[threadIdx.x] = twice(data[threadIdx.x]);
}

template __global__ void scale<float>(float*);
