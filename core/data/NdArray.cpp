#include "data/NdArray.hpp"

namespace kw {

std::size_t NdArray::elementCount(const std::vector<std::size_t>& shape)
{
    std::size_t n = 1;
    for (std::size_t d : shape)
        n *= d;
    return n;
}

HostBuffer convertTo(const HostBuffer& data, DType dtype)
{
    const bool sameBits = data.dtype() == dtype
        || (data.dtype() == DType::U16 && dtype == DType::BF16)
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
