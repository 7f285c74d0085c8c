#pragma once
// The primary context of one device, retained for the owner's lifetime.
#include <cuda.h>

#include <cstddef>

namespace kw::cuda {

class Context {
public:
    // Retains device `ordinal`'s primary context and makes it current on this thread.
    explicit Context(int ordinal);
    ~Context();
    Context(Context&& other) noexcept;
    Context& operator=(Context&& other) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    int ordinal() const noexcept { return ordinal_; }
    CUdevice device() const noexcept { return device_; }
    CUcontext handle() const noexcept { return context_; }

    void makeCurrent() const;
    void synchronize() const;
    void setLimit(CUlimit limit, std::size_t value) const;
    std::size_t limit(CUlimit limit) const;

private:
    void release() noexcept;
    int ordinal_ = -1;
    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
};

} // namespace kw::cuda
