struct NoCopy {
    NoCopy() = default;
    NoCopy(const NoCopy&) = delete;
};
__device__ void take(NoCopy n) {}
__global__ void k()
{
    NoCopy a;
    take(a);
}
