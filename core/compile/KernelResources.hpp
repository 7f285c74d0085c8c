#pragma once
// What ptxas allocated for one kernel of a module compiled for a real GPU
// architecture, as its verbose report (-Xptxas=-v) states it.
#include <cstddef>
#include <string>

namespace kw {

struct KernelResources {
    std::string entry;               // lowered name, as in the PTX .entry
    std::string arch;                // "sm_90"
    int registers = 0;               // per thread
    int barriers = 0;                // named barriers used
    std::size_t stackBytes = 0;      // stack frame per thread
    std::size_t spillStoreBytes = 0; // register spills to local memory, per thread
    std::size_t spillLoadBytes = 0;
    std::size_t sharedBytes = 0;   // static shared memory per block
    std::size_t constantBytes = 0; // cmem[0]: the parameter bank
};

} // namespace kw
