#pragma once
// One device allocation, freed on destruction.
#include <cuda.h>

#include <cstddef>
#include <string>

namespace kw::cuda {

class DeviceMemory {
public:
    DeviceMemory() = default;
    DeviceMemory(std::size_t bytes, std::string label);
    ~DeviceMemory();
    DeviceMemory(DeviceMemory&& other) noexcept;
    DeviceMemory& operator=(DeviceMemory&& other) noexcept;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    CUdeviceptr pointer() const noexcept { return ptr_; }
    std::size_t size() const noexcept { return bytes_; }
    const std::string& label() const noexcept { return label_; }
    // Forgets the allocation without freeing it: after a timeout a kernel may still use
    // it and cuMemFree would wait for that kernel forever.
    void abandon() noexcept { ptr_ = 0; }

private:
    void free() noexcept;
    CUdeviceptr ptr_ = 0;
    std::size_t bytes_ = 0;
    std::string label_;
};

} // namespace kw::cuda
