#pragma once
// What the warp loop may run without its scheduler's tests between instructions
// (BlockRunner::runWarp): for each pc, how many plain instructions follow from it, and
// the fused handler of the instructions beginning there, if any.
#include "sim/Instr.hpp"

#include <cstdint>
#include <vector>

namespace kw::sim {

class PlainLines {
public:
    // Runs `Fused::length` instructions from `at` as one for a whole warp, or declines with
    // nothing done (they then run one by one).
    struct Fused {
        bool (*run)(Warp& w, const Instr* at) = nullptr;
        std::uint32_t length = 0;
    };

    explicit PlainLines(const std::vector<Instr>& code);

    // The plain instructions from pc on: run by their handler alone, with nothing for the
    // scheduler to do before or after them (no control flow, guard, warp-synchronous
    // execution or polling). pc may be the code's end (0).
    std::uint32_t length(std::uint32_t pc) const { return length_[pc]; }
    const Fused& fused(std::uint32_t pc) const { return fused_[pc]; }

private:
    std::vector<std::uint32_t> length_;
    std::vector<Fused> fused_;
};

} // namespace kw::sim
