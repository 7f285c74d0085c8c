#pragma once
// The tiled product's inner loop as the warp loop may run it in one step: a step is two
// scalar f32 loads and the fma.rn.f32 of their values (ld x; ld y; fma d, x, y, c), and a
// chain is such steps in a row on a straight line, each adding into the next (its c the
// d of the step before): an unrolled `s += As[ty][k] * Bs[k][tx]`.
//
// For each register a chain writes, whether the kernel may read it after the chain: one
// that no instruction outside the chain names, that the chain writes before it reads it,
// in a chain no branch enters but at its start, is read only by the chain itself, which
// hands the value on without the register (the loaded values and the partial sums).
#include "sim/PtxModule.hpp"
#include "sim/RegisterMentions.hpp"

#include <cstdint>
#include <vector>

namespace kw::sim {

struct LoadFmaChain {
    static constexpr std::uint32_t kMaxSteps = 21; // three bits a step in `live`
    std::uint32_t steps = 0;                       // 0: no chain begins here
    // Bit 3t, 3t + 1, 3t + 2: step t's x, y and d may be read after the chain (no others set).
    std::uint64_t live = 0;
};

class LoadFmaChains {
public:
    explicit LoadFmaChains(const Function& fn);

    // The chain beginning at pc, within the `plain` instructions of a straight line from pc
    // (PlainLines::length).
    LoadFmaChain at(std::uint32_t pc, std::uint32_t plain) const;

private:
    const std::vector<Instr>& code_;
    RegisterMentions mentions_;
    std::vector<bool> target_; // a branch goes to this pc
};

} // namespace kw::sim
