#include "helper.h"
__global__ void k(int* out)
{
    out[0] = helper(1);
}
