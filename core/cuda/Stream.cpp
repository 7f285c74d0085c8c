#include "cuda/Stream.hpp"

#include "cuda/DriverApi.hpp"

#include <utility>

namespace kw::cuda {

Stream::Stream()
{
    const auto& api = DriverApi::get();
    api.check(api.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate", "run stream");
}

Stream::~Stream() { destroy(); }

Stream::Stream(Stream&& other) noexcept
    : stream_(std::exchange(other.stream_, nullptr))
{
}

Stream& Stream::operator=(Stream&& other) noexcept
{
    if (this != &other) {
        destroy();
        stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
}

void Stream::destroy() noexcept
{
    if (stream_)
        DriverApi::get().cuStreamDestroy(stream_);
    stream_ = nullptr;
}

} // namespace kw::cuda
