#include "debug/RegisterValue.hpp"

#include "data/HalfFloat.hpp"

#include <bit>
#include <fmt/format.h>
#include <utility>

namespace kw::debug {

using sim::PtxType;

namespace {

std::int64_t signedOf(std::uint64_t bits, int bytes)
{
    const int shift = 64 - 8 * bytes;
    return std::int64_t(bits << shift) >> shift;
}

std::uint64_t unsignedOf(std::uint64_t bits, int bytes)
{
    return bytes == 8 ? bits : bits & ((std::uint64_t(1) << (8 * bytes)) - 1);
}

// Bytes of an integer type and whether it is signed; 4 unsigned for the untyped.
std::pair<int, bool> integerShape(PtxType type)
{
    switch (type) {
    case PtxType::S8: return {1, true};
    case PtxType::S16: return {2, true};
    case PtxType::S32: return {4, true};
    case PtxType::S64: return {8, true};
    case PtxType::B8:
    case PtxType::U8: return {1, false};
    case PtxType::B16:
    case PtxType::U16: return {2, false};
    case PtxType::B64:
    case PtxType::U64: return {8, false};
    default: return {4, false}; // .b32, .u32, packed halves, the special registers
    }
}

} // namespace

double registerNumber(PtxType type, std::uint64_t bits)
{
    switch (type) {
    case PtxType::F32: return std::bit_cast<float>(std::uint32_t(bits));
    case PtxType::F64: return std::bit_cast<double>(bits);
    case PtxType::F16: return halfToDouble(std::uint16_t(bits));
    case PtxType::BF16: return bfloat16ToDouble(std::uint16_t(bits));
    case PtxType::Pred: return bits != 0 ? 1 : 0;
    default: {
        const auto [bytes, isSigned] = integerShape(type);
        return isSigned ? double(signedOf(bits, bytes)) : double(unsignedOf(bits, bytes));
    }
    }
}

LaneValue registerValue(PtxType type, std::uint64_t bits)
{
    LaneValue v;
    v.exists = true;
    v.number = registerNumber(type, bits);
    switch (type) {
    case PtxType::F32: v.text = fmt::format("{}", std::bit_cast<float>(std::uint32_t(bits))); break;
    case PtxType::F64:
    case PtxType::F16:
    case PtxType::BF16: v.text = fmt::format("{}", v.number); break;
    case PtxType::Pred: v.text.assign(1, bits != 0 ? '1' : '0'); break; // one char: no -Wrestrict false alarm
    default: {
        const auto [bytes, isSigned] = integerShape(type);
        v.text = isSigned ? fmt::format("{}", signedOf(bits, bytes)) : fmt::format("{}", unsignedOf(bits, bytes));
    }
    }
    return v;
}

} // namespace kw::debug
