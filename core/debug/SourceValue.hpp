#pragma once
// A source variable's value for one lane, read where SourceVariables says it is and
// shown as its DWARF type reads (int signed, unsigned, float, double, bool as
// true/false, a pointer as its address in hex). An array's element i is read the same
// way. Throws kw::Error (Usage) for a variable that has no value here, an element
// outside the array or its memory, or a type that has no single value (a struct: its
// members have, NAME.x).
#include "debug/DebugTypes.hpp"
#include "debug/SourceVariables.hpp"

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {
struct Warp;
}

namespace kw::debug {

// Whether a value of `kind` and `size` bytes reads as a single number (what sourceNumber takes).
bool isSourceNumber(dwarf::SourceType::Kind kind, std::uint32_t size);

// The number `bits` hold as a `kind` of `size` bytes (isSourceNumber): the one reading of
// a variable's bits, for a value shown and for a compiled condition (LanePredicate).
double halfNumber(std::uint16_t bits);
inline double sourceNumber(dwarf::SourceType::Kind kind, std::uint32_t size, std::uint64_t bits)
{
    using Kind = dwarf::SourceType::Kind;
    if (size < 8)
        bits &= (std::uint64_t(1) << (8 * size)) - 1;
    switch (kind) {
    case Kind::Signed: {
        const int shift = 64 - 8 * int(size);
        return double(std::int64_t(bits << shift) >> shift);
    }
    case Kind::Bool: return bits != 0 ? 1 : 0;
    case Kind::Float:
        return size == 4 ? double(std::bit_cast<float>(std::uint32_t(bits)))
            : size == 8  ? std::bit_cast<double>(bits)
                         : halfNumber(std::uint16_t(bits));
    default: return double(bits); // unsigned, a pointer's address
    }
}

// Where `size` bytes at the variable's place plus `offset` lie for one lane (a place in
// memory: Local, Shared, Global), or null where they cannot be read (sourceValue then
// refuses, saying why).
const std::uint8_t* sourceBytes(const VisibleVariable& v, const sim::Warp& w, int lane, std::uint64_t offset,
                                std::uint32_t size);

LaneValue sourceValue(const VisibleVariable& v, const sim::Warp& w, int lane);
LaneValue sourceElement(const VisibleVariable& v, const sim::Warp& w, int lane, double index);
// The value's text, or why there is none ("not available here"), for a table's cell: a
// struct as its members ({x = 1.5, n = 3}), an array of up to kShownElements numbers as
// its elements ({1, 2, 3, 4}).
std::string sourceText(const VisibleVariable& v, const sim::Warp& w, int lane);
constexpr std::uint64_t kShownElements = 16;
// Whether the variable is shown with parts (a struct's members, a small array's elements).
bool expandable(const VisibleVariable& v);
// A struct's members as variables of their own (NAME.x), in order; none for other types.
std::vector<VisibleVariable> parts(const VisibleVariable& v);

} // namespace kw::debug
