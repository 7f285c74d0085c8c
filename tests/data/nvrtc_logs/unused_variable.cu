__global__ void k(float* out)
{
	int unused = 5;
    out[0] = 1.0f;
}
