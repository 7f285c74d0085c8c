#pragma once
// What one kernel of a compiled module takes of a multiprocessor, as far as the
// compile tells: ptxas's registers for a real architecture, and the shared and local
// memory its PTX declares. The window's launch panel and `kwb-run compile` read it.
#include "compile/CompileResult.hpp"
#include "compile/KernelResources.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace kw {

struct KernelFootprint {
    std::optional<KernelResources> ptxas; // what ptxas allocated (a real arch only)
    bool declared = false;                // the PTX has the kernel's .entry
    std::size_t staticShared = 0;         // its .shared and the module's, bytes per block
    std::size_t localBytes = 0;           // per thread
    int virtualRegisters = 0;             // 32-bit PTX registers: an upper bound, not an allocation

    // Registers per thread when ptxas counted them, else 0 (not known).
    int registers() const { return ptxas ? ptxas->registers : 0; }

    // `loweredName` empty: the module's first kernel.
    static KernelFootprint of(const CompileResult& r, const std::string& loweredName);

    // The .entry name of `kernel` (a name expression such as "scale<float>"): NVRTC's
    // lowered name when it was asked for, else the entry whose mangled name holds it.
    static std::string loweredName(const CompileResult& r, const std::string& kernel);
};

} // namespace kw
