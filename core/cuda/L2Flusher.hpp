#pragma once
// Empties the GPU's L2 cache of the timed kernel's lines between timed runs, as Nsight
// Compute does before each measured launch by default: a small kernel of its own reads a
// scratch buffer twice the L2's size. Reading, not writing: a memset leaves the L2 full
// of dirty lines, which the timed kernel would then write back to memory itself (7 to 18 %
// slower memory-bound kernels than Nsight Compute measured, on an H100). The flush's
// kernel is among the launches CUPTI times, one before each timed kernel.
#include "cuda/DeviceMemory.hpp"
#include "cuda/Module.hpp"

#include <cuda.h>

#include <cstddef>

namespace kw::cuda {

class L2Flusher {
public:
    explicit L2Flusher(CUdevice device);

    // Enqueues the flush on `stream`; false when the device's L2 size is unknown.
    bool flush(CUstream stream);

private:
    std::size_t bytes_ = 0;
    DeviceMemory scratch_; // these three on the first flush
    Module module_;
    CUfunction read_ = nullptr;
};

} // namespace kw::cuda
