#pragma once
// A non-blocking CUDA stream, destroyed on destruction.
#include <cuda.h>

namespace kw {

class Stream {
public:
    Stream();
    ~Stream();
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    CUstream handle() const noexcept { return stream_; }
    // CUDA_SUCCESS when all work is done, CUDA_ERROR_NOT_READY while busy, else the error.
    CUresult query() const noexcept;
    CUresult synchronize() const noexcept;

private:
    void destroy() noexcept;
    CUstream stream_ = nullptr;
};

} // namespace kw
