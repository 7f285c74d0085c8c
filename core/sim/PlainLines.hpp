#pragma once
// What the warp loop may run without its scheduler's tests between instructions
// (BlockRunner::runWarp): for each pc, how many plain instructions follow from it, and
// the fused handler of the instructions beginning there, if any.
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <vector>

namespace kw::sim {

class PlainLines {
public:
    // Runs the first `length` of the `Fused::length` instructions from `at` as one for a
    // whole warp (a multiple of `Fused::unit`), writing only the registers whose bit is set
    // in `written` (`Fused::live` when it runs them all and nothing observes the block,
    // else every one). Returns how many it ran: all, a first part (each register of that
    // part written), or 0 with nothing done; what it did not run runs one by one.
    struct Fused {
        std::uint32_t (*run)(Warp& w, const Instr* at, std::uint32_t length, std::uint64_t written) = nullptr;
        std::uint32_t length = 0;
        std::uint32_t unit = 1;
        std::uint64_t live = ~std::uint64_t(0); // the registers the kernel may read after them
    };

    explicit PlainLines(const Function& fn);

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
