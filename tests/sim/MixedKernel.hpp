#pragma once
// A kernel with a bit of everything the interpreter schedules: global loads and stores,
// shared memory, two barriers, a divergent branch around a device function that is
// not inlined by the compiler, an atomic and printf. Three blocks of 64 threads over
// n = 150 elements, so the last block is partly out of range.
#include "SimLaunch.hpp"
#include "launch/LaunchTypes.hpp"

#include <numeric>
#include <vector>

namespace kwtest {

inline constexpr const char* kMixedSource = R"(#include <cstdio>
__device__ __noinline__ int twice(int v) {
    return 2 * v; // callee
}
extern "C" __global__ void mixed(const int* in, int* out, int* sum, int n) {
    __shared__ int tile[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : 0;
    __syncthreads();
    int v = tile[(t + 1) % blockDim.x];
    if (t % 3 == 0) v = twice(v); // call site
    else v += 1;
    atomicAdd(sum, v);
    __syncthreads();
    if (i < n) out[i] = v;
    if (t == 5) printf("block %d v=%d\n", blockIdx.x, v);
})";

inline constexpr int kMixedN = 150;

struct MixedBuffers {
    std::vector<kw::BufferArg> buffers;
    std::vector<kw::LaunchArg> args;
    kw::LaunchConfig config = kwtest::config({3}, {64});
    MixedBuffers()
    {
        std::vector<int> in(kMixedN);
        std::iota(in.begin(), in.end(), 7);
        buffers.push_back(buffer("in", in));
        buffers.push_back(buffer("out", std::vector<int>(kMixedN, -1)));
        buffers.push_back(buffer("sum", std::vector<int>(1, 0)));
        args = {bufArg(0), bufArg(1), bufArg(2), scalar<int>(kMixedN)};
    }
};

} // namespace kwtest
