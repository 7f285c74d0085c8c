#pragma once
// A PTX module decoded once into compact per-function instruction arrays whose
// operands are register indices (immediates and special registers included).
#include "sim/Instr.hpp"
#include "sim/MatrixOp.hpp"
#include "sim/PtxTypes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct ParamDecl {
    std::string name;
    std::uint32_t size = 0, align = 1, offset = 0;
};

// A device function inlined into a kernel, where it was called from. Frame 0 is the
// kernel itself (no call site); the others name the frame they were called from.
struct CallFrame {
    std::string function;
    std::uint32_t parent = 0;
    std::uint16_t callFile = 0; // the call's source line (.loc), 0 when unknown
    std::uint32_t callLine = 0;
};

// A name of the PTX text in one call frame of a function (a device function inlined at
// several calls has its names once per call): what debug information refers to.
struct FrameName {
    std::string name;
    std::uint32_t frame = 0;
    std::uint64_t value = 0; // a label: the pc it marks; a register: its index; a .local: its frame offset
};

struct Function {
    std::string name;
    bool isEntry = false;
    std::vector<Instr> code;
    std::vector<std::string> text;        // each instruction as written, for messages
    std::vector<std::string> unsupported; // per instruction: why it cannot run (usually empty)
    std::vector<std::uint32_t> frame;     // per instruction: its CallFrame in `frames`
    std::vector<CallFrame> frames;
    std::uint32_t numRegs = RegFirstUser;
    std::vector<std::string> regNames; // per register index: its PTX name (%r12, %tid.x), empty for immediates
    std::vector<PtxType> regTypes;     // per register index: its declared type (None: special registers, immediates)
    std::vector<std::pair<std::uint32_t, std::uint64_t>> constRegs; // immediates
    std::vector<ParamDecl> params;
    std::uint32_t paramBytes = 0;
    std::uint32_t localBytes = 0;             // per-thread .local frame
    std::vector<FrameName> labels;            // code labels
    std::vector<FrameName> registers;         // the registers declared at each frame's function level
    std::vector<FrameName> locals;            // .local variables (and call parameters), by frame offset
    std::vector<MatrixOp> matrixOps;          // the matrix instructions' operands (their Instr::imm indexes it)
    std::uint32_t clusterDims[3] = {1, 1, 1}; // .reqnctapercluster (__cluster_dims__): blocks per cluster

    // The PTX name of register `index`, empty when it has none (an immediate, the sink).
    const std::string& registerName(std::uint32_t index) const;
    // The type register `index` was declared with (.reg .f32 %f<4>: F32), None when it has none.
    PtxType registerType(std::uint32_t index) const;
    // The frames instruction `pc` executes in, innermost first, the kernel's last.
    std::vector<const CallFrame*> callStack(std::uint32_t pc) const;
};

struct GlobalVar {
    std::string name;
    Space space = Space::Global;
    std::uint64_t size = 0;
    std::uint32_t align = 1;
    bool isExtern = false;          // extern .shared: the dynamic shared memory
    std::vector<std::uint8_t> init; // initial bytes (zeros when not initialised)
    std::uint64_t address = 0;      // global/const: fake address; shared: offset
};

struct Module {
    std::vector<Function> functions;
    std::vector<GlobalVar> globals;
    std::vector<std::string> files;        // .file index -> path
    std::uint32_t staticShared = 0;        // bytes of module-level .shared
    std::uint32_t dynamicSharedOffset = 0; // where extern .shared starts
    // From sm_80 on CUDA keeps a reserved shared-memory window per block, which
    // cooperative groups' multi-warp tiles use as scratch (%reserved_smem_offset_1). The
    // simulator places one of this size after the user's shared memory, only for a module
    // that reads those registers (so no other kernel's out-of-bounds access lands in it).
    static constexpr std::uint32_t kReservedSharedBytes = 1024;
    std::uint32_t reservedShared = 0;

    // Where the reserved window starts in a block's shared memory (the end of the user's,
    // aligned; just the end when there is no window), and the bytes a block holds in all,
    // for a launch with `dynamicBytes` of dynamic shared memory.
    std::uint32_t reservedSharedOffset(std::uint32_t dynamicBytes) const;
    std::uint32_t sharedBytes(std::uint32_t dynamicBytes) const;

    const Function* findFunction(const std::string& name) const;
    std::string fileName(std::uint16_t index) const;
};

} // namespace kw::sim
