__global__ void k(int* out)
{
    out[0] = undefinedA;
    out[1] = undefinedB;
    float f = "text";
}
