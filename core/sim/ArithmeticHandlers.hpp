#pragma once
// The lane loops of arithmetic, logic, comparison, move and conversion instructions.
// The decoder names an operation (from its opcode table row) and the instruction's
// type; these functions pick the loop compiled for that type, nullptr when there is none.
#include "sim/Instr.hpp"

#include <cstdint>

namespace kw::sim {

enum class ArithOp : std::uint8_t {
    None,
    // d = a op b
    Add,
    Sub,
    Mul,
    MulHi,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Copysign,
    // d = a op b, with b an unsigned shift amount
    Shl,
    Shr,
    // d = op a
    Not,
    Cnot,
    Neg,
    Abs,
    Sqrt,
    Rsqrt,
    Rcp,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
    Popc,
    Clz,
    Brev,
    Bfind,
    BfindShiftAmt,
    // d = a * b + c (Mad: the low half on integers, fma on floats), d = |a - b| + c
    Mad,
    MadHi,
    Sad,
};

// Integer, float, f16/f16x2 (add sub mul min max neg abs mad) and predicate (and or xor not) forms.
Handler arithHandler(ArithOp op, PtxType t);

// add.cc/addc/sub.cc/subc/mad.cc/madc on 32- and 64-bit integers (Instr::carryIn/carryOut).
enum class CarryOp : std::uint8_t { Add, Sub, MadLo, MadHi };
Handler carryHandler(CarryOp op, PtxType t);
// mul.wide/mad.wide: the product of 16- or 32-bit integers in a register twice as wide.
Handler wideHandler(bool mad, PtxType t);
Handler bfeHandler(PtxType t);
Handler bfiHandler(PtxType t);
Handler shfHandler(bool left, bool clamp);
Handler dp4aHandler(bool signedA, bool signedB);
// setp.cmp[.bool].type (Instr::cmp, boolOp) and set.cmp.dtype.type (Instr::cmp), f16 included.
Handler setpHandler(PtxType t);
Handler setHandler(PtxType t);

void hPrmt(Warp& w, const Instr& in, std::uint32_t mask);
void hLop3(Warp& w, const Instr& in, std::uint32_t mask); // in.imm: the truth table
void hSelp(Warp& w, const Instr& in, std::uint32_t mask);
void hTestp(Warp& w, const Instr& in, std::uint32_t mask); // in.test
void hMov(Warp& w, const Instr& in, std::uint32_t mask);
void hPack(Warp& w, const Instr& in, std::uint32_t mask);    // in.packBits, in.na
void hUnpack(Warp& w, const Instr& in, std::uint32_t mask);  // in.packBits, in.nd
void hCvta(Warp& w, const Instr& in, std::uint32_t mask);    // adds in.imm (the window offset, negative to a space)
void hCvt(Warp& w, const Instr& in, std::uint32_t mask);     // in.type from in.type2, in.round
void hCvtPack(Warp& w, const Instr& in, std::uint32_t mask); // f16x2/bf16x2 from two f32: a high, b low
void hCvtTf32(Warp& w, const Instr& in, std::uint32_t mask); // tf32 (an f32, 13 low bits zero) from f32: .rna .rn .rz

} // namespace kw::sim
