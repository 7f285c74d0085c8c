#include "cuda/DriverStagingDevice.hpp"

#include "cuda/DriverApi.hpp"

namespace kw::cuda {

void* DriverStagingDevice::allocateSlot(std::size_t bytes)
{
    const auto& api = DriverApi::get();
    void* p = nullptr;
    api.check(api.cuMemAllocHost(&p, bytes), "cuMemAllocHost",
              "pinned staging buffer of " + std::to_string(bytes) + " bytes");
    return p;
}

void DriverStagingDevice::freeSlot(void* slot) noexcept
{
    if (slot)
        DriverApi::get().cuMemFreeHost(slot);
}

void DriverStagingDevice::toDevice(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream stream,
                                   const std::string& label)
{
    const auto& api = DriverApi::get();
    api.check(api.cuMemcpyHtoDAsync(dst, src, bytes, stream), "cuMemcpyHtoDAsync", "upload of buffer " + label);
}

void DriverStagingDevice::toHost(void* dst, CUdeviceptr src, std::size_t bytes, CUstream stream,
                                 const std::string& label)
{
    const auto& api = DriverApi::get();
    api.check(api.cuMemcpyDtoHAsync(dst, src, bytes, stream), "cuMemcpyDtoHAsync", "download of buffer " + label);
}

void DriverStagingDevice::markSlot(std::size_t slot, CUstream stream)
{
    while (marks_.size() <= slot)
        marks_.emplace_back();
    marks_[slot].record(stream);
}

void DriverStagingDevice::waitSlot(std::size_t slot, const std::string& label)
{
    const auto& api = DriverApi::get();
    if (slot < marks_.size())
        api.check(api.cuEventSynchronize(marks_[slot].handle()), "cuEventSynchronize", "copy of buffer " + label);
}

void DriverStagingDevice::waitAll(CUstream stream, const std::string& label)
{
    const auto& api = DriverApi::get();
    api.check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", "copy of buffer " + label);
}

} // namespace kw::cuda
