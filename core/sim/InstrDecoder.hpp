#pragma once
// Turns one parsed PTX instruction into a typed Instr with its handler.
#include "sim/PtxModule.hpp"
#include "sim/PtxOperand.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kw::sim {

struct DecodeEnv {
    std::function<std::uint32_t(std::uint64_t)> constReg; // register holding an immediate
    std::function<int(const std::string&)> label;         // instruction index, -1 if unknown
    std::function<std::uint32_t(MatrixOp)> matrixOp;      // keeps a wmma's operands, returns their index
    std::function<PtxType(std::uint32_t)> registerType;   // the type a register was declared with
};

// Returns an empty string on success, else why the instruction cannot be executed
// (the caller turns it into a Ctrl::Unsupported instruction that faults when reached).
std::string decodeInstr(const std::string& opcode, const std::vector<PtxOperand>& ops, Instr& in, const DecodeEnv& env);

} // namespace kw::sim
