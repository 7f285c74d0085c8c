#pragma once
// Handlers for memory, atomic and warp-collective instructions (the arithmetic ones
// are picked through ArithmeticHandlers.hpp).
#include "sim/PtxModule.hpp"

#include <cstdint>

namespace kw::sim {

// Memory: in.elemSize is the element size in bytes, in.vec the vector width.
void hLoad(Warp& w, const Instr& in, std::uint32_t mask);
void hStore(Warp& w, const Instr& in, std::uint32_t mask);
void hLoadParam(Warp& w, const Instr& in, std::uint32_t mask);
// A chain of the tiled product's inner steps (LoadFmaChains: ld.f32 x; ld.f32 y;
// fma.rn.f32 d, x, y, c, each step's d the next one's c) as one, for a whole warp, as
// PlainLines::Fused runs it: `length` instructions from `at`, a multiple of three. Each
// load's half-warps must each read one address or consecutive elements, all inside the
// bounds; when one does not, the steps before its own run, writing every register, and the
// rest is left to run one by one, which finds any fault. Returns the instructions run.
std::uint32_t hLoadFmaChainF32(Warp& w, const Instr* at, std::uint32_t length, std::uint64_t written);
// Atomics: in.atom is the operation; red has no destination (d[0] is the sink).
void hAtom16(Warp& w, const Instr& in, std::uint32_t mask);
void hAtom32(Warp& w, const Instr& in, std::uint32_t mask);
void hAtom64(Warp& w, const Instr& in, std::uint32_t mask);
// fence.sc, fence.acq_rel, membar: nothing to do but tell the observers (racecheck orders by them).
void hFence(Warp& w, const Instr& in, std::uint32_t mask);

void hShfl(Warp& w, const Instr& in, std::uint32_t mask);
void hVote(Warp& w, const Instr& in, std::uint32_t mask);
void hActivemask(Warp& w, const Instr& in, std::uint32_t mask);
void hRedux(Warp& w, const Instr& in, std::uint32_t mask);
void hMatchAny(Warp& w, const Instr& in, std::uint32_t mask);
void hMatchAll(Warp& w, const Instr& in, std::uint32_t mask);
// bar.warp.sync (__syncwarp): orders the lanes' shared accesses for racecheck and checks the mask
// under synccheck (BarrierChecks.cpp); otherwise no effect beyond the reconvergence warpSync asks for.
void hBarWarpSync(Warp& w, const Instr& in, std::uint32_t mask);
// wmma.load, wmma.store, wmma.mma and mma.sync, ldmatrix, stmatrix, movmatrix
// (MatrixHandlers.cpp): the whole warp at once, in.imm indexing the function's MatrixOps.
void hWmmaLoad(Warp& w, const Instr& in, std::uint32_t mask);
void hWmmaStore(Warp& w, const Instr& in, std::uint32_t mask);
void hMatrixMma(Warp& w, const Instr& in, std::uint32_t mask);
void hLoadRows(Warp& w, const Instr& in, std::uint32_t mask);
void hStoreRows(Warp& w, const Instr& in, std::uint32_t mask);
void hTranspose(Warp& w, const Instr& in, std::uint32_t mask);
// cp.async (AsyncCopyHandlers.cpp): the copy is checked where it is issued and lands when
// its lane waits for its group. a[0]: the source address, a[2] its offset, a[1] the
// source size (type2 Pred: an ignore-src predicate); elemSize: cp-size.
void hCpAsync(Warp& w, const Instr& in, std::uint32_t mask);
void hCpAsyncCommit(Warp& w, const Instr& in, std::uint32_t mask);
void hCpAsyncWait(Warp& w, const Instr& in, std::uint32_t mask);    // a[0]: the newest groups left in flight
void hCpAsyncWaitAll(Warp& w, const Instr& in, std::uint32_t mask); // commit, then wait for every group
// cp.async.mbarrier.arrive: the lane's copies land, then (in.imm & 1: .noinc) it arrives on
// the barrier at [addr] + a[2].
void hCpAsyncMbarrierArrive(Warp& w, const Instr& in, std::uint32_t mask);
// cp.async.bulk (AsyncCopyHandlers.cpp), done where it is issued (one order a GPU may give):
// a[1] bytes from [a[0]] + a[2] to [addr] + imm; into shared memory, it then completes that
// many bytes of the transaction on the barrier at [a[3]] + target, which is a release.
void hCpAsyncBulkToShared(Warp& w, const Instr& in, std::uint32_t mask);       // from global memory
void hCpAsyncBulkSharedToShared(Warp& w, const Instr& in, std::uint32_t mask); // within the block's
void hCpAsyncBulkToGlobal(Warp& w, const Instr& in, std::uint32_t mask);       // from shared memory, no barrier
// mbarrier (MbarrierHandlers.cpp), the barrier at [addr] + a[2] in shared memory: init
// (a[0] the count), inval, arrive (d[0] the state, a[0] the count; in.imm bit 0 .arrive_drop,
// bit 1 .noComplete, bit 2 .expect_tx: a[0] the bytes and the arrival one), expect_tx and
// complete_tx (a[0] the bytes; in.imm bit 0 expect), test_wait and try_wait (d[0] complete,
// a[0] the state, or with in.imm bit 0 the phase parity), pending_count (d[0] from the state a[0]).
void hMbarrierInit(Warp& w, const Instr& in, std::uint32_t mask);
void hMbarrierInval(Warp& w, const Instr& in, std::uint32_t mask);
void hMbarrierArrive(Warp& w, const Instr& in, std::uint32_t mask);
void hMbarrierTransaction(Warp& w, const Instr& in, std::uint32_t mask);
void hMbarrierTestWait(Warp& w, const Instr& in, std::uint32_t mask);
void hMbarrierPendingCount(Warp& w, const Instr& in, std::uint32_t mask);
void hClock(Warp& w, const Instr& in, std::uint32_t mask);   // %clock, %clock64, %globaltimer(_lo)
void hClockHi(Warp& w, const Instr& in, std::uint32_t mask); // %clock_hi, %globaltimer_hi

} // namespace kw::sim
