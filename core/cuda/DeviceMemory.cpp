#include "cuda/DeviceMemory.hpp"

#include "cuda/DriverApi.hpp"

#include <utility>

namespace kw::cuda {

DeviceMemory::DeviceMemory(std::size_t bytes, std::string label)
    : bytes_(bytes)
    , label_(std::move(label))
{
    const auto& api = DriverApi::get();
    // A zero-byte buffer still gets a distinct, valid pointer for the kernel.
    api.check(api.cuMemAlloc(&ptr_, bytes ? bytes : 1), "cuMemAlloc",
              "buffer " + label_ + ", " + std::to_string(bytes) + " bytes");
}

DeviceMemory::~DeviceMemory() { free(); }

DeviceMemory::DeviceMemory(DeviceMemory&& other) noexcept
    : ptr_(std::exchange(other.ptr_, 0))
    , bytes_(std::exchange(other.bytes_, 0))
    , label_(std::move(other.label_))
{
}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept
{
    if (this != &other) {
        free();
        ptr_ = std::exchange(other.ptr_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
        label_ = std::move(other.label_);
    }
    return *this;
}

void DeviceMemory::free() noexcept
{
    if (ptr_)
        DriverApi::get().cuMemFree(ptr_);
    ptr_ = 0;
}

} // namespace kw::cuda
