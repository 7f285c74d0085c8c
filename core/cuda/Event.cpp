#include "cuda/Event.hpp"

#include "cuda/DriverApi.hpp"

#include <utility>

namespace kw::cuda {

Event::Event()
{
    const auto& api = DriverApi::get();
    api.check(api.cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate", "timing event");
}

Event::~Event() { destroy(); }

Event::Event(Event&& other) noexcept
    : event_(std::exchange(other.event_, nullptr))
{
}

Event& Event::operator=(Event&& other) noexcept
{
    if (this != &other) {
        destroy();
        event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
}

void Event::destroy() noexcept
{
    if (event_)
        DriverApi::get().cuEventDestroy(event_);
    event_ = nullptr;
}

void Event::record(CUstream stream) const
{
    const auto& api = DriverApi::get();
    api.check(api.cuEventRecord(event_, stream), "cuEventRecord", "timing event");
}

float Event::elapsedSince(const Event& start) const
{
    const auto& api = DriverApi::get();
    float ms = 0;
    api.check(api.cuEventElapsedTime(&ms, start.event_, event_), "cuEventElapsedTime", "timing event");
    return ms;
}

} // namespace kw::cuda
