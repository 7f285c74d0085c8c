#include "sim/PlainLines.hpp"

#include "sim/Handlers.hpp"
#include "sim/LoadFmaChains.hpp"

namespace kw::sim {

namespace {
bool plain(const Instr& in) { return in.ctrl == Ctrl::None && in.fn && in.guard < 0 && !in.warpSync && !in.polls; }
} // namespace

PlainLines::PlainLines(const Function& fn)
    : length_(fn.code.size() + 1, 0)
    , fused_(fn.code.size() + 1)
{
    const std::vector<Instr>& code = fn.code;
    for (std::size_t pc = code.size(); pc-- > 0;)
        length_[pc] = plain(code[pc]) ? length_[pc + 1] + 1 : 0;
    const LoadFmaChains chains(fn);
    for (std::uint32_t pc = 0; pc < code.size(); ++pc)
        if (const LoadFmaChain c = chains.at(pc, length_[pc]); c.steps)
            fused_[pc] = {&hLoadFmaChainF32, 3 * c.steps, 3, c.live};
}

} // namespace kw::sim
