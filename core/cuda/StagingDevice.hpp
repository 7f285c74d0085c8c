#pragma once
// What the staging ring asks of a device: page-locked slots, copies queued on a stream,
// a mark per slot to wait for. The driver's (DriverStagingDevice) is the real one; a test
// gives one that queues copies in host memory and runs them only when waited for, so the
// ring's order of copies and waits is checked without a GPU.
#include <cuda.h>

#include <cstddef>
#include <string>

namespace kw::cuda {

class StagingDevice {
public:
    virtual ~StagingDevice() = default;

    virtual void* allocateSlot(std::size_t bytes) = 0; // page-locked
    virtual void freeSlot(void* slot) noexcept = 0;
    // Queued on `stream` after what is there; `label` names the buffer in errors.
    virtual void toDevice(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream,
                          const std::string& label)
        = 0;
    virtual void toHost(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream, const std::string& label) = 0;
    // Marks what is queued on `stream` so far as slot `slot`'s use; waitSlot returns once
    // that is done, waitAll once everything queued is.
    virtual void markSlot(std::size_t slot, CUstream stream) = 0;
    virtual void waitSlot(std::size_t slot, const std::string& label) = 0;
    virtual void waitAll(CUstream stream, const std::string& label) = 0;
};

} // namespace kw::cuda
