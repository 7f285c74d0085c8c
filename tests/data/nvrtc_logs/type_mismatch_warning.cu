__global__ void k(int* out, float f)
{
    unsigned char c = 300;
    out[0] = c;
}
