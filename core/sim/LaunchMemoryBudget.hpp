#pragma once
// What one simulator launch will take of the host's memory, worked out before anything
// is allocated: registers, local and shared memory for the blocks the workers hold at
// once, the module's variables, the printf buffer. A launch past the budget is refused
// with a message naming the biggest part, instead of exhausting the machine before the
// time limit could stop it.
#include "launch/Dim3.hpp"

#include <cstdint>
#include <string>

namespace kw::sim {

struct Function;
struct Module;

struct LaunchMemory {
    std::uint64_t registers = 0, local = 0, shared = 0, variables = 0, printf = 0;
    std::uint64_t total() const;
};

class LaunchMemoryBudget {
public:
    static LaunchMemory of(const Module& mod, const Function& fn, Dim3 block, std::uint32_t sharedBytes,
                           std::uint64_t printfBytes, unsigned workers);
    // Throws kw::Error(Limit) when `need` is over `limit`, naming its biggest part.
    static void check(const LaunchMemory& need, std::uint64_t limit);
    // Half the machine's memory.
    static std::uint64_t defaultLimit();
};

} // namespace kw::sim
