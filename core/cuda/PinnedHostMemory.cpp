#include "cuda/PinnedHostMemory.hpp"

#include "cuda/DriverApi.hpp"

#include <string>
#include <utility>

namespace kw::cuda {

PinnedHostMemory::PinnedHostMemory(std::size_t bytes)
    : bytes_(bytes)
{
    const auto& api = DriverApi::get();
    api.check(api.cuMemAllocHost(&ptr_, bytes), "cuMemAllocHost",
              "pinned staging buffer of " + std::to_string(bytes) + " bytes");
}

PinnedHostMemory::~PinnedHostMemory() { free(); }

PinnedHostMemory::PinnedHostMemory(PinnedHostMemory&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr))
    , bytes_(std::exchange(other.bytes_, 0))
{
}

PinnedHostMemory& PinnedHostMemory::operator=(PinnedHostMemory&& other) noexcept
{
    if (this != &other) {
        free();
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void PinnedHostMemory::free() noexcept
{
    if (ptr_)
        DriverApi::get().cuMemFreeHost(ptr_);
    ptr_ = nullptr;
}

} // namespace kw::cuda
