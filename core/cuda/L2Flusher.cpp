#include "cuda/L2Flusher.hpp"

#include "cuda/DriverApi.hpp"

namespace kw::cuda {

L2Flusher::L2Flusher(CUdevice device)
{
    const auto& api = DriverApi::get();
    int l2 = 0;
    if (api.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device) == CUDA_SUCCESS && l2 > 0)
        bytes_ = 2 * std::size_t(l2);
}

bool L2Flusher::flush(CUstream stream)
{
    const auto& api = DriverApi::get();
    if (bytes_ == 0 || !api.cuMemsetD8Async)
        return false;
    if (scratch_.size() == 0)
        scratch_ = DeviceMemory(bytes_, "L2 flush scratch buffer");
    api.check(api.cuMemsetD8Async(scratch_.pointer(), 0, bytes_, stream), "cuMemsetD8Async", "L2 flush");
    return true;
}

} // namespace kw::cuda
