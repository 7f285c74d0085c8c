#ifndef BLOCK
#error "BLOCK must be defined"
#endif
__global__ void k() {}
