#pragma once
// Page-locked host memory (staging for fast copies), freed on destruction.
#include <cstddef>

namespace kw::cuda {

class PinnedHostMemory {
public:
    PinnedHostMemory() = default;
    explicit PinnedHostMemory(std::size_t bytes);
    ~PinnedHostMemory();
    PinnedHostMemory(PinnedHostMemory&& other) noexcept;
    PinnedHostMemory& operator=(PinnedHostMemory&& other) noexcept;
    PinnedHostMemory(const PinnedHostMemory&) = delete;
    PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;

    void* data() const noexcept { return ptr_; }
    std::size_t size() const noexcept { return bytes_; }

private:
    void free() noexcept;
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace kw::cuda
