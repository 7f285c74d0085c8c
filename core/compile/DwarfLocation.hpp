#pragma once
// Where a variable's value is, as a DWARF location expression of NVRTC's PTX says:
// a PTX register (DW_OP_regx whose operand is the register's name packed as bytes:
// 0x257233 is "%r3") or a symbol's address plus an offset (DW_OP_addr partial;
// DW_OP_addr __local_depot0, DW_OP_plus_uconst 16 for a .local variable). Any other
// operation is an error: the reader never guesses a place.
#include "compile/DwarfCursor.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::dwarf {

struct VariableLocation {
    enum class Kind : std::uint8_t { Register, Address } kind = Kind::Register;
    std::string registerName; // "%r3"
    std::string symbol;       // "partial", "__local_depot0"
    std::uint64_t offset = 0; // bytes after the symbol
};

// Throws kw::Error naming what it does not know.
VariableLocation decodeLocation(const DwarfBlock& expression);

// The PTX register name packed in a DW_OP_regx operand, or empty when the bytes are
// not one ('%' first, then letters, digits, '_' or '.').
std::string packedRegisterName(std::uint64_t operand);

// A location list entry (.debug_loc): the location holds from `begin` up to `end`,
// both code labels of the PTX.
struct LocationRange {
    std::string begin;
    std::string end;
    VariableLocation location;
};

// The location list at `offset` of .debug_loc, up to its end-of-list entry.
std::vector<LocationRange> readLocationList(const DebugSection& loc, std::size_t offset);

} // namespace kw::dwarf
