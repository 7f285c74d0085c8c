#pragma once
// The staging ring's device through the driver API: cuMemAllocHost slots, async copies,
// one event per slot.
#include "cuda/Event.hpp"
#include "cuda/StagingDevice.hpp"

#include <vector>

namespace kw::cuda {

class DriverStagingDevice : public StagingDevice {
public:
    void* allocateSlot(std::size_t bytes) override;
    void freeSlot(void* slot) noexcept override;
    void toDevice(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream,
                  const std::string& label) override;
    void toHost(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream, const std::string& label) override;
    void markSlot(std::size_t slot, CUstream stream) override;
    void waitSlot(std::size_t slot, const std::string& label) override;
    void waitAll(CUstream stream, const std::string& label) override;

private:
    std::vector<Event> marks_; // by slot, created on first use
};

} // namespace kw::cuda
