#pragma once
// Empties the GPU's L2 cache between timed runs by writing a scratch buffer twice its
// size (a memset, so no kernel of its own appears among the timed kernels), as
// Nsight Compute does before each measured launch by default.
#include "cuda/DeviceMemory.hpp"

#include <cuda.h>

#include <cstddef>

namespace kw::cuda {

class L2Flusher {
public:
    explicit L2Flusher(CUdevice device);

    // Enqueues the flush on `stream`; false when the device's L2 size is unknown or the
    // memset entry point is missing.
    bool flush(CUstream stream);

private:
    std::size_t bytes_ = 0;
    DeviceMemory scratch_; // allocated on the first flush
};

} // namespace kw::cuda
