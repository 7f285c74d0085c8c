__global__ void bitonic_step(float* data, int j, int k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = i ^ j;
    // The lower index of each pair does the compare-and-swap.
    if (partner > i) {
        bool ascending = (i & j) == 0;
        float a = data[i], b = data[partner];
        if ((a > b) == ascending) {
            data[i] = b; // planted
            data[partner] = a;
        }
    }
}
