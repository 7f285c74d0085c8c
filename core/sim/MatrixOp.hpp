#pragma once
// A warp-wide matrix instruction (wmma.load/store/mma, mma.sync, ldmatrix, stmatrix,
// movmatrix) as decoded. Its fragments name more registers than an Instr holds, so the
// Instr keeps an index into Function::matrixOps (Instr::imm; isMatrixInstr tells such an
// Instr) and the rest lives here.
//
// A fragment spreads a matrix over the warp's registers; slot j of a lane is the j-th
// element in its registers, in register order, low bits first. Where each element lies:
// - wmma: CUDA leaves it unspecified; the simulator's is: slot s = lane * perLane + j holds
//   element s mod (rows * cols) of the matrix in row-major order. A fragment with more
//   slots than elements (f16 multiplicands: two or four times as many) holds the matrix
//   that many times over, the later lanes repeating the first ones. Loads, stores and mma
//   agree on it, which is all a program may rely on.
// - mma.sync: PTX specifies it per shape and type (matrixElementAt), and programs rely on
//   it: they fill fragments themselves or with ldmatrix.
#include <cstdint>
#include <vector>

namespace kw::sim {

// The element types of WMMA fragments: PTX's, with tf32 (an f32 of which only the top 19
// bits count), which no other instruction reads.
enum class MatrixElem : std::uint8_t { F16, BF16, Tf32, F32, F64, S8, U8, S32 };

int matrixElemBytes(MatrixElem e);   // in memory
int matrixElemsPerReg(MatrixElem e); // packed into one register: 2 for f16/bf16, 4 for s8/u8, else 1

// Whose layout a fragment has: the simulator's own for wmma, PTX's for mma.sync's
// multiplicands A and B and its accumulator C (and D).
enum class FragmentLayout : std::uint8_t { Wmma, MmaA, MmaB, MmaC };

struct MatrixFragment {
    MatrixElem elem = MatrixElem::F32;
    FragmentLayout layout = FragmentLayout::Wmma;
    std::uint16_t rows = 0, cols = 0; // A: m x k, B: k x n, C and D: m x n
    std::vector<std::uint32_t> regs;  // the registers, in the order written

    std::uint32_t perLane() const { return std::uint32_t(regs.size()) * std::uint32_t(matrixElemsPerReg(elem)); }
    std::uint32_t elements() const { return std::uint32_t(rows) * cols; }
};

// The row-major index of the element in slot j of lane `lane`.
std::uint32_t matrixElementAt(const MatrixFragment& f, int lane, std::uint32_t j);

struct MatrixOp {
    // Load, Store, Mma: wmma's and mma.sync's (by the fragments' layout). The rest move
    // 8 x 8 matrices of 16-bit elements in mma.sync's accumulator layout, one register per
    // matrix in each lane: LoadRows (ldmatrix) and StoreRows (stmatrix) from and to eight
    // rows of 16 bytes whose addresses lanes 8i..8i+7 give for matrix i; Transpose (movmatrix).
    enum class Kind : std::uint8_t { Load, Store, Mma, LoadRows, StoreRows, Transpose };
    Kind kind = Kind::Load;
    bool colMajor = false;  // load, store: the matrix's layout in memory; LoadRows, StoreRows: .trans
    bool satfinite = false; // integer mma: clamp to the s32 range instead of wrapping
    // load: [0] the destination; store: [0] the source; mma: d, a, b, c; LoadRows: [0] the
    // destinations; StoreRows: [0] the sources; Transpose: [0] d, [1] a.
    MatrixFragment frag[4];
    bool hasStride = false;   // load, store: a stride operand was written (else the matrix's row or column length)
    std::uint32_t stride = 0; // its register: elements from one row (column) to the next
    std::int64_t offset = 0;  // load, store: the address operand's offset
};

} // namespace kw::sim
