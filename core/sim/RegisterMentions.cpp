#include "sim/RegisterMentions.hpp"

#include <algorithm>

namespace kw::sim {

RegisterMentions::RegisterMentions(const std::vector<Instr>& code, std::uint32_t numRegs)
    : first_(numRegs, ~0u)
    , last_(numRegs, 0)
{
    auto note = [&](std::uint32_t r, std::uint32_t pc) {
        if (r >= numRegs)
            return;
        first_[r] = std::min(first_[r], pc);
        last_[r] = std::max(last_[r], pc);
    };
    // Every field that may hold a register; a field holding something else (printf's frame
    // offsets) only makes a register look named where it is not, which is the safe side.
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
        const Instr& in = code[pc];
        for (std::uint32_t r : in.d)
            note(r, pc);
        for (std::uint32_t r : in.a)
            note(r, pc);
        note(in.addr, pc);
        if (in.guard >= 0)
            note(std::uint32_t(in.guard), pc);
    }
}

} // namespace kw::sim
