#pragma once
// The decode functions the opcode table's rows point at, one per instruction family.
// Each reads the mnemonic and operands through the Decoder and fills in its Instr.
#include "sim/OpcodeTable.hpp"

namespace kw::sim {

// Arithmetic, logic, comparison, move and conversion (ArithmeticDecoders.cpp).
void decodeBinary(Decoder& d, const OpcodeInfo& row);  // d = a op b, the row's ArithOp
void decodeUnary(Decoder& d, const OpcodeInfo& row);   // d = op a
void decodeShift(Decoder& d, const OpcodeInfo& row);   // d = a op b, b: u32
void decodeTernary(Decoder& d, const OpcodeInfo& row); // d = a op b op c, c of the instruction's type
void decodeCount(Decoder& d, const OpcodeInfo& row);   // popc, clz: a u32 result
void decodeBfind(Decoder& d, const OpcodeInfo& row);
void decodeAddSub(Decoder& d, const OpcodeInfo& row); // .cc: through the carry flag
void decodeCarry(Decoder& d, const OpcodeInfo& row);  // addc, subc, madc
void decodeMul(Decoder& d, const OpcodeInfo& row);
void decodeMad(Decoder& d, const OpcodeInfo& row); // mad, and fma (which has no .cc)
void decodeBfe(Decoder& d, const OpcodeInfo& row);
void decodeBfi(Decoder& d, const OpcodeInfo& row);
void decodeDp4a(Decoder& d, const OpcodeInfo& row);
void decodePrmt(Decoder& d, const OpcodeInfo& row);
void decodeLop3(Decoder& d, const OpcodeInfo& row);
void decodeShf(Decoder& d, const OpcodeInfo& row);
void decodeSelp(Decoder& d, const OpcodeInfo& row);
void decodeTestp(Decoder& d, const OpcodeInfo& row);
void decodeSetp(Decoder& d, const OpcodeInfo& row); // setp and set
void decodeCvt(Decoder& d, const OpcodeInfo& row);
void decodeCvta(Decoder& d, const OpcodeInfo& row);
void decodeMov(Decoder& d, const OpcodeInfo& row);
void decodeMinMax(Decoder& d, const OpcodeInfo& row);

// Memory, warp collectives, control flow and hints (MemoryControlDecoders.cpp).
void decodeLoad(Decoder& d, const OpcodeInfo& row); // ld, ldu
void decodeStore(Decoder& d, const OpcodeInfo& row);
void decodeAtomic(Decoder& d, const OpcodeInfo& row); // atom, red
void decodeShfl(Decoder& d, const OpcodeInfo& row);
void decodeVote(Decoder& d, const OpcodeInfo& row);
void decodeActivemask(Decoder& d, const OpcodeInfo& row);
void decodeRedux(Decoder& d, const OpcodeInfo& row);
void decodeMatch(Decoder& d, const OpcodeInfo& row);
void decodeBra(Decoder& d, const OpcodeInfo& row);
void decodeExit(Decoder& d, const OpcodeInfo& row); // ret, exit
void decodeTrap(Decoder& d, const OpcodeInfo& row);
void decodeBarrier(Decoder& d, const OpcodeInfo& row);  // bar, barrier
void decodeNoEffect(Decoder& d, const OpcodeInfo& row); // hints
void decodeFence(Decoder& d, const OpcodeInfo& row);    // fence, membar
void decodeNanosleep(Decoder& d, const OpcodeInfo& row);
void decodeRefused(Decoder& d, const OpcodeInfo& row); // brx, isspacep
void decodeCpAsync(Decoder& d, const OpcodeInfo& row); // cp.async, its groups, cp.async.mbarrier.arrive
void decodeMbarrier(Decoder& d, const OpcodeInfo& row);

// Warp-wide matrix instructions (MatrixDecoder.cpp).
void decodeWmma(Decoder& d, const OpcodeInfo& row);       // wmma.load, wmma.store, wmma.mma
void decodeMma(Decoder& d, const OpcodeInfo& row);        // mma.sync
void decodeMatrixRows(Decoder& d, const OpcodeInfo& row); // ldmatrix, stmatrix
void decodeMovmatrix(Decoder& d, const OpcodeInfo& row);

} // namespace kw::sim
