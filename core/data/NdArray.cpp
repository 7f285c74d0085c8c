#include "data/NdArray.hpp"

#include "util/Error.hpp"

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

HostBuffer convertTo(const HostBuffer& data, DType dtype)
{
    const bool sameBits = data.dtype() == dtype || (data.dtype() == DType::U16 && dtype == DType::BF16)
        || (data.dtype() == DType::BF16 && dtype == DType::U16);
    if (sameBits) {
        HostBuffer out(dtype, data.count());
        out.bytes() = data.bytes();
        return out;
    }
    HostBuffer out(dtype, data.count());
    const std::size_t inSize = sizeOf(data.dtype());
    const std::size_t outSize = sizeOf(dtype);
    for (std::size_t i = 0; i < data.count(); ++i)
        storeFromDouble(dtype, out.data() + i * outSize, loadAsDouble(data.dtype(), data.data() + i * inSize));
    return out;
}

} // namespace kw
