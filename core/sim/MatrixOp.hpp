#pragma once
// A warp-wide matrix instruction (wmma.load, wmma.store, wmma.mma) as decoded. Its
// fragments name more registers than an Instr holds, so the Instr keeps an index into
// Function::matrixOps (Instr::imm; isMatrixInstr tells such an Instr) and the rest lives here.
//
// A fragment spreads a matrix over the warp's registers. CUDA leaves the place of each
// element unspecified; the simulator's is: slot s = lane * perLane + j (j the element in
// the lane's registers, in register order, low bits first) holds element s mod (rows *
// cols) of the matrix in row-major order. A fragment with more slots than elements (f16
// multiplicands: two or four times as many) holds the matrix that many times over, the
// later lanes repeating the first ones.
// Loads, stores and mma agree on it, which is all a program may rely on.
#include <cstdint>
#include <vector>

namespace kw::sim {

// The element types of WMMA fragments: PTX's, with tf32 (an f32 of which only the top 19
// bits count), which no other instruction reads.
enum class MatrixElem : std::uint8_t { F16, BF16, Tf32, F32, F64, S8, U8, S32 };

int matrixElemBytes(MatrixElem e);   // in memory
int matrixElemsPerReg(MatrixElem e); // packed into one register: 2 for f16/bf16, 4 for s8/u8, else 1

struct MatrixFragment {
    MatrixElem elem = MatrixElem::F32;
    std::uint16_t rows = 0, cols = 0; // A: m x k, B: k x n, C and D: m x n
    std::vector<std::uint32_t> regs;  // the registers, in the order written

    std::uint32_t perLane() const { return std::uint32_t(regs.size()) * std::uint32_t(matrixElemsPerReg(elem)); }
    std::uint32_t elements() const { return std::uint32_t(rows) * cols; }
};

struct MatrixOp {
    enum class Kind : std::uint8_t { Load, Store, Mma };
    Kind kind = Kind::Load;
    bool colMajor = false;  // load, store: the matrix's layout in memory
    bool satfinite = false; // integer mma: clamp to the s32 range instead of wrapping
    // load: [0] the destination; store: [0] the source; mma: d, a, b, c.
    MatrixFragment frag[4];
    bool hasStride = false;   // load, store: a stride operand was written (else the matrix's row or column length)
    std::uint32_t stride = 0; // its register: elements from one row (column) to the next
    std::int64_t offset = 0;  // load, store: the address operand's offset
};

} // namespace kw::sim
