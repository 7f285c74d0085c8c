#pragma once
// A non-blocking CUDA stream, destroyed on destruction.
#include <cuda.h>

namespace kw::cuda {

class Stream {
public:
    Stream();
    ~Stream();
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    CUstream handle() const noexcept { return stream_; }

private:
    void destroy() noexcept;
    CUstream stream_ = nullptr;
};

} // namespace kw::cuda
