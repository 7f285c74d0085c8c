#pragma once
// One decoded instruction: its handler, operand registers and the modifiers that
// select what the handler does, each in a field of its own type. Instr is read on
// every step of the warp loop: the selectors are bit-fields so it stays 88 bytes.
#include "sim/PtxTypes.hpp"

#include <cstdint>

namespace kw::sim {

struct Warp;
struct Instr;
using Handler = void (*)(Warp&, const Instr&, std::uint32_t mask);

// Instructions the warp scheduler handles itself; everything else runs through Instr::fn.
enum class Ctrl : std::uint8_t { None, Bra, Exit, Bar, Printf, Assert, Trap, Unsupported };

// Registers every warp pre-fills at start: special registers, a zero and a sink.
enum SpecialReg : std::uint32_t {
    RegZero,
    RegSink,
    RegTidX,
    RegTidY,
    RegTidZ,
    RegNtidX,
    RegNtidY,
    RegNtidZ,
    RegCtaidX,
    RegCtaidY,
    RegCtaidZ,
    RegNctaidX,
    RegNctaidY,
    RegNctaidZ,
    RegLaneId,
    RegWarpId,
    RegNwarpId,
    RegLanemaskEq,
    RegLanemaskLt,
    RegLanemaskLe,
    RegLanemaskGt,
    RegLanemaskGe,
    RegDynSmem,
    RegTotalSmem,
    RegSmId,
    RegNsmId,
    RegGridId,
    RegOne,
    RegCarry, // the carry flag of add.cc/addc/sub.cc/subc/mad.cc/madc
    // The reserved shared-memory window (Module::reservedShared): its begin, end and size,
    // and the two offsets into it that %reserved_smem_offset_0 and _1 name.
    RegReservedBegin,
    RegReservedEnd,
    RegReservedCap,
    RegReserved0,
    RegReserved1,
    RegFirstUser,
};

// Rna: to nearest, ties away from zero (cvt to tf32 only).
enum class RoundMode : std::uint8_t { Default, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };
// setp/set comparisons; lo/ls/hi/hs are the unsigned ones, the ...u forms are true on NaN.
enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
// setp's .and/.or/.xor: how the comparison combines with the predicate c.
enum class BoolOp : std::uint8_t { None, And, Or, Xor };
// testp's classes.
enum class TestOp : std::uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
// bar.red's reduction over the block's predicates; None is a plain barrier.
enum class BarRedOp : std::uint8_t { None, Popc, And, Or };
enum class AtomOp : std::uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : std::uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : std::uint8_t { All, Any, Uni, Ballot };
enum class ReduxOp : std::uint8_t { Add, Min, Max, And, Or, Xor };
// What a memory access or fence promises about ordering (PTX memory model): a weak access
// none; volatile and .relaxed accesses are strong (they make a fence before a write a
// release, and one after a read an acquire); .acquire/.release/.acq_rel order by
// themselves. A fence (fence.sc, fence.acq_rel, membar) is AcqRel.
enum class MemOrder : std::uint8_t { Weak, Volatile, Relaxed, Acquire, Release, AcqRel };

inline bool isStrong(MemOrder o) { return o != MemOrder::Weak; }
inline bool acquires(MemOrder o) { return o == MemOrder::Acquire || o == MemOrder::AcqRel; }
inline bool releases(MemOrder o) { return o == MemOrder::Release || o == MemOrder::AcqRel; }

struct Instr {
    Handler fn = nullptr;
    Ctrl ctrl = Ctrl::None;
    PtxType type = PtxType::None;  // the instruction's (destination) type
    PtxType type2 = PtxType::None; // cvt source type, wide/compare operand type
    Space space = Space::Generic;
    std::uint8_t elemSize = 0; // ld/st: bytes of one element
    std::uint8_t packBits = 0; // mov {a, b, ...}: bits of one packed element
    std::uint8_t vec = 1;      // vector width of ld/st
    std::uint8_t negMask = 0;  // bit i: a[i] is a negated predicate

    RoundMode round : 4 = RoundMode::Default;
    BoolOp boolOp : 2 = BoolOp::None;
    ShflMode shfl : 2 = ShflMode::Up;
    CmpOp cmp : 5 = CmpOp::Eq;
    TestOp test : 3 = TestOp::Finite;
    AtomOp atom : 4 = AtomOp::Add; // atom, red
    VoteMode vote : 2 = VoteMode::All;
    BarRedOp barRed : 2 = BarRedOp::None;
    ReduxOp redux : 3 = ReduxOp::Add;
    MemOrder order : 3 = MemOrder::Weak; // ld, st, atom, red, fence
    bool carryIn : 1 = false;            // addc/subc/madc: add the carry flag
    bool carryOut : 1 = false;           // .cc: write the carry flag
    bool ftz : 1 = false;
    bool sat : 1 = false;
    bool relu : 1 = false;      // fma/cvt .relu: negative results become +0
    bool nanMode : 1 = false;   // min/max .NaN: a NaN operand gives NaN
    bool satfinite : 1 = false; // cvt .satfinite: overflow gives the largest finite value
    bool atomic : 1 = false;    // atomics do not race with each other
    std::uint8_t nd : 3 = 0;    // destinations and sources in d[] and a[] where a handler loops over them
    std::uint8_t na : 3 = 0;
    bool guardNeg : 1 = false;
    bool barCount : 1 = false; // bar.sync id, b: a[1] holds the thread count b

    bool warpSync = false;   // shfl/vote/match/redux/bar.warp.sync: member lanes execute together
    bool polls = false;      // nanosleep, volatile/acquire loads, cas/exch: a loop around it may be a spin wait
    std::int32_t guard = -1; // predicate register guarding the instruction
    std::uint32_t d[4] = {RegSink, RegSink, RegSink, RegSink};
    std::uint32_t a[4] = {RegZero, RegZero, RegZero, RegZero};
    std::uint32_t addr = RegZero; // memory operand base register
    std::int64_t imm = 0;         // memory operand offset, lop3 table, cvta window offset
    std::uint32_t target = 0;     // branch target
    std::uint32_t line = 0;       // source line (.loc), 0 when unknown
    std::uint16_t file = 0;       // .file index
};

static_assert(sizeof(Instr) <= 88, "Instr is in the warp loop: keep it small");

} // namespace kw::sim
