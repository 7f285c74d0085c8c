#pragma once
// A CUDA event for timing, destroyed on destruction.
#include <cuda.h>

namespace kw::cuda {

class Event {
public:
    Event();
    ~Event();
    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    CUevent handle() const noexcept { return event_; }
    void record(CUstream stream) const;
    // Milliseconds between `start` and this event; both must have completed.
    float elapsedSince(const Event& start) const;

private:
    void destroy() noexcept;
    CUevent event_ = nullptr;
};

} // namespace kw::cuda
