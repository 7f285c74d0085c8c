#pragma once
// The instructions the simulator decodes, one row per mnemonic: the operands it takes,
// the types and modifiers it accepts and the function that decodes it. The decoder
// finds a row by binary search; docs/ptx-support.md lists the same rows (a test
// compares the two).
#include "sim/ArithmeticHandlers.hpp"
#include "sim/PtxTypes.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kw::sim {

class Decoder;
struct OpcodeInfo;
using DecodeFn = void (*)(Decoder&, const OpcodeInfo&);

// How the operands are laid out (d: destinations, a, b, c: sources, p, q: predicates).
enum class Shape : std::uint8_t {
    None,       // no operands
    Ignored,    // operands, not read (hints)
    Label,      // a branch target
    Dest,       // d
    Unary,      // d, a
    Convert,    // d, a  or  d, a, b (two floats into a packed pair)
    Binary,     // d, a, b
    Ternary,    // d, a, b, c
    Quaternary, // d, a, b, c, e
    TableImm,   // d, a, b, c, imm
    Select,     // d, a, b, {!}c
    Compare,    // p[|q], a, b[, {!}c]
    Move,       // d, a  or  d, {a, ...}  or  {d, ...}, a
    Load,       // d or {d, ...}, [address]
    Store,      // [address], a or {a, ...}
    Atomic,     // d, [address], a[, b]
    Reduce,     // [address], a
    Shuffle,    // d[|p], a, b, c, membermask
    Vote,       // d, {!}p, membermask
    WarpReduce, // d, a, membermask
    Match,      // d[|p], a, membermask
    Barrier,    // id  or  d, id, {!}p
    AsyncCopy,  // [dst], [src], size[, src-size]  or  n  or  nothing: cp.async and its groups
    Matrix,     // fragments {d, ...}, {a, ...}: wmma's load, store and mma
    Mbarrier,   // [address], count  or  state, [address]  or  p, [address], state: mbarrier
    MatrixMma,  // {d, ...}, {a, ...}, {b, ...}, {c, ...}: mma.sync
    MatrixRows, // {d, ...}, [address]  or  [address], {a, ...}: ldmatrix, stmatrix
};

// A set of PtxTypes, one bit each.
using TypeSet = std::uint32_t;
constexpr TypeSet typeBit(PtxType t) { return TypeSet(1) << unsigned(t); }
constexpr TypeSet typeBits(std::initializer_list<PtxType> ts)
{
    TypeSet s = 0;
    for (PtxType t : ts)
        s |= typeBit(t);
    return s;
}

struct OpcodeInfo {
    std::string_view name; // the mnemonic's first part
    Shape shape;
    TypeSet types;              // the type modifiers it runs with (0: takes none)
    std::string_view modifiers; // the modifiers that change what it does, space-separated, without dots
    DecodeFn decode;
    ArithOp op = ArithOp::None; // the arithmetic, for rows that share a decode function
    bool refused = false;       // recognised only to say why it cannot run
};

// The row for a mnemonic's first part, nullptr when the simulator does not know it.
const OpcodeInfo* findOpcode(std::string_view name);
// Every row, sorted by name.
std::span<const OpcodeInfo> supportedOpcodes();

// For messages and docs/ptx-support.md.
std::string_view shapeText(Shape s);
std::string typeSetText(TypeSet s); // e.g. "int f16 f16x2 f32 f64"; "int" is every integer type
bool listsModifier(const OpcodeInfo& row, std::string_view mod);

} // namespace kw::sim
