#pragma once
// Typed iteration over a HostBuffer: one dtype switch per call instead of one per
// element, so whole-buffer passes (decimation, statistics) stay fast for 10^7 values.
#include "data/HostBuffer.hpp"

#include <cstdint>
#include <cstring>

namespace kw {

// Calls f(get) once, where get(i) returns element i as double with the dtype fixed at
// compile time (16-bit floats go through HostBuffer::at: C++ has no type for them).
template <class F> void visitValues(const HostBuffer& b, F&& f)
{
    const std::byte* p = b.data();
    switch (b.dtype()) {
    case DType::I8: f([p](std::size_t i) { return double(reinterpret_cast<const std::int8_t*>(p)[i]); }); break;
    case DType::U8: f([p](std::size_t i) { return double(reinterpret_cast<const std::uint8_t*>(p)[i]); }); break;
    case DType::I16: f([p](std::size_t i) { return double(reinterpret_cast<const std::int16_t*>(p)[i]); }); break;
    case DType::U16: f([p](std::size_t i) { return double(reinterpret_cast<const std::uint16_t*>(p)[i]); }); break;
    case DType::I32: f([p](std::size_t i) { return double(reinterpret_cast<const std::int32_t*>(p)[i]); }); break;
    case DType::U32: f([p](std::size_t i) { return double(reinterpret_cast<const std::uint32_t*>(p)[i]); }); break;
    case DType::I64: f([p](std::size_t i) { return double(reinterpret_cast<const std::int64_t*>(p)[i]); }); break;
    case DType::U64: f([p](std::size_t i) { return double(reinterpret_cast<const std::uint64_t*>(p)[i]); }); break;
    case DType::F32: f([p](std::size_t i) { return double(reinterpret_cast<const float*>(p)[i]); }); break;
    case DType::F64: f([p](std::size_t i) { return reinterpret_cast<const double*>(p)[i]; }); break;
    case DType::F16:
    case DType::BF16: f([&b](std::size_t i) { return b.at(i); }); break;
    }
}

} // namespace kw
