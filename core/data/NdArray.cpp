#include "data/NdArray.hpp"

#include "util/Error.hpp"

#include <cstring>
#include <utility>

namespace kw {

std::optional<std::size_t> NdArray::checkedElementCount(const std::vector<std::size_t>& shape)
{
    std::size_t n = 1;
    for (std::size_t d : shape)
        if (__builtin_mul_overflow(n, d, &n))
            return std::nullopt;
    return n;
}

std::size_t NdArray::elementCount(const std::vector<std::size_t>& shape)
{
    const auto n = checkedElementCount(shape);
    if (!n)
        throw Error(ErrorCategory::Internal, "a shape whose element count overflows 64 bits");
    return *n;
}

namespace {

bool sameBits(DType from, DType to)
{
    return from == to || (from == DType::U16 && to == DType::BF16) || (from == DType::BF16 && to == DType::U16);
}

} // namespace

HostBuffer convertTo(const HostBuffer& data, DType dtype)
{
    // Every element is written below: the new buffer is not zeroed first.
    HostBuffer out = HostBuffer::uninitialised(dtype, data.count());
    if (sameBits(data.dtype(), dtype)) {
        if (data.byteSize())
            std::memcpy(out.data(), data.data(), data.byteSize());
        return out;
    }
    const std::size_t inSize = sizeOf(data.dtype());
    const std::size_t outSize = sizeOf(dtype);
    for (std::size_t i = 0; i < data.count(); ++i)
        storeFromDouble(dtype, out.data() + i * outSize, loadAsDouble(data.dtype(), data.data() + i * inSize));
    return out;
}

HostBuffer convertTo(HostBuffer&& data, DType dtype)
{
    if (!sameBits(data.dtype(), dtype))
        return convertTo(static_cast<const HostBuffer&>(data), dtype);
    return HostBuffer(dtype, std::move(data.bytes()));
}

} // namespace kw
