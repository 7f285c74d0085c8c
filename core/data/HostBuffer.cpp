#include "data/HostBuffer.hpp"

#include "util/Error.hpp"

#include <string>
#include <utility>

namespace kw {

HostBuffer::HostBuffer(DType dtype, std::size_t count)
    : dtype_(dtype)
    , count_(count)
    , bytes_(count * sizeOf(dtype), std::byte{0})
{
}

HostBuffer::HostBuffer(DType dtype, HostBytes bytes)
    : dtype_(dtype)
    , count_(bytes.size() / sizeOf(dtype))
    , bytes_(std::move(bytes))
{
    if (bytes_.size() % sizeOf(dtype) != 0)
        throw Error(ErrorCategory::Internal,
                    std::to_string(bytes_.size()) + " bytes are not a whole number of " + toString(dtype)
                        + " elements");
}

HostBuffer HostBuffer::uninitialised(DType dtype, std::size_t count)
{
    HostBuffer b;
    b.dtype_ = dtype;
    b.count_ = count;
    b.bytes_.resize(count * sizeOf(dtype)); // default-initialised: not written
    return b;
}

double HostBuffer::at(std::size_t i) const
{
    if (i >= count_)
        throw Error(ErrorCategory::Internal,
                    "element " + std::to_string(i) + " is outside a buffer of " + std::to_string(count_));
    return loadAsDouble(dtype_, bytes_.data() + i * sizeOf(dtype_));
}

void HostBuffer::set(std::size_t i, double v)
{
    if (i >= count_)
        throw Error(ErrorCategory::Internal,
                    "element " + std::to_string(i) + " is outside a buffer of " + std::to_string(count_));
    storeFromDouble(dtype_, bytes_.data() + i * sizeOf(dtype_), v);
}

} // namespace kw
