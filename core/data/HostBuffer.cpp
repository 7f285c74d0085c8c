#include "data/HostBuffer.hpp"

#include "util/Error.hpp"

#include <string>

namespace kw {

HostBuffer::HostBuffer(DType dtype, std::size_t count)
    : dtype_(dtype)
    , count_(count)
    , bytes_(count * sizeOf(dtype))
{
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
