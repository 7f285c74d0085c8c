__global__ void k(int* out)
{
    int x;
    out[0] = x;
}
