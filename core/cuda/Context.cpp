#include "cuda/Context.hpp"

#include "cuda/DriverApi.hpp"

#include <string>
#include <utility>

namespace kw::cuda {

namespace {
std::string deviceLabel(int ordinal) { return "device cuda:" + std::to_string(ordinal); }
} // namespace

Context::Context(int ordinal)
    : ordinal_(ordinal)
{
    const auto& api = DriverApi::get();
    api.check(api.cuDeviceGet(&device_, ordinal), "cuDeviceGet", deviceLabel(ordinal));
    api.check(api.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain", deviceLabel(ordinal));
    makeCurrent();
}

Context::~Context() { release(); }

Context::Context(Context&& other) noexcept
    : ordinal_(std::exchange(other.ordinal_, -1))
    , device_(other.device_)
    , context_(std::exchange(other.context_, nullptr))
{
}

Context& Context::operator=(Context&& other) noexcept
{
    if (this != &other) {
        release();
        ordinal_ = std::exchange(other.ordinal_, -1);
        device_ = other.device_;
        context_ = std::exchange(other.context_, nullptr);
    }
    return *this;
}

void Context::release() noexcept
{
    if (context_)
        DriverApi::get().cuDevicePrimaryCtxRelease(device_);
    context_ = nullptr;
}

void Context::makeCurrent() const
{
    const auto& api = DriverApi::get();
    api.check(api.cuCtxSetCurrent(context_), "cuCtxSetCurrent", deviceLabel(ordinal_));
}

void Context::synchronize() const
{
    const auto& api = DriverApi::get();
    api.check(api.cuCtxSynchronize(), "cuCtxSynchronize", deviceLabel(ordinal_));
}

void Context::setLimit(CUlimit limit, std::size_t value) const
{
    const auto& api = DriverApi::get();
    api.check(api.cuCtxSetLimit(limit, value), "cuCtxSetLimit",
              deviceLabel(ordinal_) + ", limit " + std::to_string(int(limit)) + " = " + std::to_string(value));
}

std::size_t Context::limit(CUlimit limit) const
{
    const auto& api = DriverApi::get();
    std::size_t value = 0;
    api.check(api.cuCtxGetLimit(&value, limit), "cuCtxGetLimit", deviceLabel(ordinal_));
    return value;
}

} // namespace kw::cuda
