#pragma once
// What a kernel's PTX says about its resources: static shared memory, local
// (stack) memory, and the virtual registers it declares. Real register
// allocation happens in ptxas, so PTX alone cannot give the final count.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kw {

struct PtxResources {
    bool found = false;              // the .entry was in the PTX
    std::size_t staticSharedBytes = 0;
    std::size_t localBytes = 0;
    int virtualRegisters = 0;        // sum of .reg declarations
    std::optional<int> maxThreads;   // from .maxntid

    // Looks up the .entry named loweredName; empty name: the first entry.
    static PtxResources parse(std::string_view ptx, std::string_view loweredName);
};

} // namespace kw
