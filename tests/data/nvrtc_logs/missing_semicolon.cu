__global__ void k(int* out)
{
    int x = 3
    out[0] = x;
}
