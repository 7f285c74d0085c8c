template <typename T>
__global__ void fill(T* data)
{
    data[0] = T::zero();
}
template __global__ void fill<int>(int*);
