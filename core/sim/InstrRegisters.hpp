#pragma once
// Every register an instruction names: its destinations, sources, address and guard, and
// a matrix instruction's fragments. Fields that hold something else (printf's frame offsets) make a
// register look named where it is not, which is the safe side for every caller.
#include "sim/Handlers.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>

namespace kw::sim {

// A warp matrix instruction, whose fragments are in Function::matrixOps (Instr::imm indexes it).
inline bool isMatrixInstr(const Instr& in)
{
    return in.fn == &hWmmaLoad || in.fn == &hWmmaStore || in.fn == &hMatrixMma || in.fn == &hLoadRows
        || in.fn == &hStoreRows || in.fn == &hTranspose;
}

template <class F> void forInstrRegisters(const Function& fn, const Instr& in, F f)
{
    for (std::uint32_t d : in.d)
        f(d);
    for (std::uint32_t a : in.a)
        f(a);
    f(in.addr);
    if (in.guard >= 0)
        f(std::uint32_t(in.guard));
    if (isMatrixInstr(in) && std::uint64_t(in.imm) < fn.matrixOps.size())
        for (const MatrixFragment& frag : fn.matrixOps[std::size_t(in.imm)].frag)
            for (std::uint32_t r : frag.regs)
                f(r);
}

} // namespace kw::sim
