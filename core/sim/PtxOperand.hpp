#pragma once
// One operand of a PTX instruction after names are resolved, before decoding.
#include "sim/PtxTypes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct PtxOperand {
    enum class Kind { Reg, Imm, Mem, Vec, Sym };
    Kind kind = Kind::Reg;
    std::uint32_t reg = 0;  // Reg; Mem base register
    std::uint32_t reg2 = 0; // Reg: second predicate of "p|q"
    bool hasPair = false;
    bool neg = false;                 // Reg: "!p"
    std::string text;                 // Imm token (sign included), Sym name
    Space memSpace = Space::Generic;  // Mem: the space of a symbol base, Generic for a register base
    std::int64_t offset = 0;          // Mem offset (symbol address folded in)
    std::vector<std::uint32_t> regs;  // Vec
    std::vector<std::string> elemImm; // Vec: per element, its immediate token ("" for a register)
    bool symKnown = false;            // Sym: the name is a variable with an address
    std::uint64_t symAddr = 0;
    Space symSpace = Space::Global;
};

} // namespace kw::sim

namespace kw::sim {
// The bits of an immediate token ("0f3F800000", "-4", "0x1F", "1.5") for an operand of type t.
std::uint64_t immediateBits(const std::string& text, PtxType t);
} // namespace kw::sim
