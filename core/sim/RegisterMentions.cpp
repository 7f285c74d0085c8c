#include "sim/RegisterMentions.hpp"

#include "sim/InstrRegisters.hpp"

#include <algorithm>

namespace kw::sim {

RegisterMentions::RegisterMentions(const Function& fn)
    : first_(fn.numRegs, ~0u)
    , last_(fn.numRegs, 0)
{
    for (std::uint32_t pc = 0; pc < fn.code.size(); ++pc)
        forInstrRegisters(fn, fn.code[pc], [&](std::uint32_t r) {
            if (r >= first_.size()) // a field holding something else
                return;
            first_[r] = std::min(first_[r], pc);
            last_[r] = std::max(last_[r], pc);
        });
}

} // namespace kw::sim
