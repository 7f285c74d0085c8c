#define BLOCK 1024
__global__ void flag_offsets(int n, const int* flags, int* offsets)
{
    __shared__ int warpTotals[BLOCK / 32];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    bool flag = i < n && flags[i] != 0;
    // Within the warp: the flags of the lanes before this one.
    unsigned votes = __ballot_sync(0xffffffffu, flag);
    int before = __popc(votes & ((1u << lane) - 1u));
    if (lane == 0)
        warpTotals[warp] = __popc(votes);
    __syncthreads();
    // The warps before this one: one warp scans the 32 totals.
    if (warp == 0) {
        int total = warpTotals[lane];
        for (int offset = 1; offset < 32; offset *= 2) {
            int v = __shfl_up_sync(0xffffffffu, total, offset);
            if (lane >= offset)
                total += v;
        }
        warpTotals[lane] = total; // inclusive
    }
    __syncthreads();
    if (i < n)
        offsets[i] = before + (warp > 0 ? warpTotals[warp] : 0); // planted
}
