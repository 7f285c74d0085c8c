#pragma once
// A PTX module decoded once into compact per-function instruction arrays whose
// operands are register indices (immediates and special registers included).
#include "sim/PtxTypes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct Warp;
struct Instr;
using Handler = void (*)(Warp&, const Instr&, std::uint32_t mask);

// Instructions the warp scheduler handles itself; everything else runs through Instr::fn.
enum class Ctrl : std::uint8_t { None, Bra, Exit, Bar, Printf, Assert, Trap, Unsupported };

// Registers every warp pre-fills at start: special registers, a zero and a sink.
enum SpecialReg : std::uint32_t {
    RegZero, RegSink,
    RegTidX, RegTidY, RegTidZ, RegNtidX, RegNtidY, RegNtidZ,
    RegCtaidX, RegCtaidY, RegCtaidZ, RegNctaidX, RegNctaidY, RegNctaidZ,
    RegLaneId, RegWarpId, RegNwarpId, RegLanemaskEq, RegLanemaskLt, RegLanemaskLe,
    RegLanemaskGt, RegLanemaskGe, RegDynSmem, RegTotalSmem, RegSmId, RegNsmId, RegGridId,
    RegOne,
    RegCarry, // the carry flag of add.cc/addc/sub.cc/subc/mad.cc/madc
    RegFirstUser,
};

struct Instr {
    Handler fn = nullptr;
    Ctrl ctrl = Ctrl::None;
    PtxType type = PtxType::None;   // the instruction's (destination) type
    PtxType type2 = PtxType::None;  // cvt source type, wide/compare operand type
    Space space = Space::Generic;
    std::uint8_t mode = 0;          // comparison, shuffle mode, atomic/bool op, ...
    std::uint8_t rnd = 0;           // RoundMode
    bool ftz = false, sat = false;
    bool atomic = false;            // atomics do not race with each other
    bool warpSync = false;          // shfl/vote/match/redux/bar.warp.sync: member lanes execute together
    bool polls = false;             // nanosleep, volatile/acquire loads, cas/exch: a loop around it may be a spin wait
    std::uint8_t vec = 1;           // vector width of ld/st/mov
    std::uint8_t nd = 0, na = 0;
    std::uint8_t negMask = 0;       // bit i: a[i] is a negated predicate
    bool guardNeg = false;
    std::int32_t guard = -1;        // predicate register guarding the instruction
    std::uint32_t d[4] = {RegSink, RegSink, RegSink, RegSink};
    std::uint32_t a[4] = {RegZero, RegZero, RegZero, RegZero};
    std::uint32_t addr = RegZero;   // memory operand base register
    std::int64_t imm = 0;           // memory operand offset, bit-field constants, ...
    std::uint32_t target = 0;       // branch target
    std::uint32_t line = 0;         // source line (.loc), 0 when unknown
    std::uint16_t file = 0;         // .file index
};

enum class RoundMode : std::uint8_t { Default, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };

struct ParamDecl {
    std::string name;
    std::uint32_t size = 0, align = 1, offset = 0;
};

struct Function {
    std::string name;
    bool isEntry = false;
    std::vector<Instr> code;
    std::vector<std::string> text;       // each instruction as written, for messages
    std::vector<std::string> unsupported; // per instruction: why it cannot run (usually empty)
    std::uint32_t numRegs = RegFirstUser;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> constRegs; // immediates
    std::vector<ParamDecl> params;
    std::uint32_t paramBytes = 0;
    std::uint32_t localBytes = 0;        // per-thread .local frame
};

struct GlobalVar {
    std::string name;
    Space space = Space::Global;
    std::uint64_t size = 0;
    std::uint32_t align = 1;
    bool isExtern = false;                // extern .shared: the dynamic shared memory
    std::vector<std::uint8_t> init;       // initial bytes (zeros when not initialised)
    std::uint64_t address = 0;            // global/const: fake address; shared: offset
};

struct Module {
    std::vector<Function> functions;
    std::vector<GlobalVar> globals;
    std::vector<std::string> files;       // .file index -> path
    std::uint32_t staticShared = 0;       // bytes of module-level .shared
    std::uint32_t dynamicSharedOffset = 0;// where extern .shared starts

    const Function* findFunction(const std::string& name) const;
    std::string fileName(std::uint16_t index) const;
};

} // namespace kw::sim
