#include "sim/LoadFmaChains.hpp"

#include "sim/ArithmeticHandlers.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"

#include <algorithm>

namespace kw::sim {

namespace {

// A scalar load of an unsigned 32-bit value (a sign-extending one would widen differently).
bool loadOf32Bits(const Instr& in)
{
    return in.fn == &hLoad && in.vec == 1 && in.elemSize == 4 && !isSigned(in.type) && !in.negMask;
}

// ld.f32 x; ld.f32 y; fma.rn.f32 d, x, y, c (or y, x). The second address is not the first
// value, c is neither value and the values differ, so the step may read every operand
// before it writes.
bool step(const Instr* at)
{
    const Instr &x = at[0], &y = at[1], &f = at[2];
    if (!loadOf32Bits(x) || !loadOf32Bits(y) || y.addr == x.d[0] || x.d[0] == y.d[0])
        return false;
    if (f.fn != arithHandler(ArithOp::Mad, PtxType::F32) || !plainRounding(f) || f.negMask)
        return false;
    const bool operands = (f.a[0] == x.d[0] && f.a[1] == y.d[0]) || (f.a[0] == y.d[0] && f.a[1] == x.d[0]);
    return operands && f.a[2] != x.d[0] && f.a[2] != y.d[0];
}

} // namespace

LoadFmaChains::LoadFmaChains(const Function& fn)
    : code_(fn.code)
    , mentions_(fn)
    , target_(fn.code.size() + 1, false)
{
    for (const Instr& in : fn.code)
        if (in.ctrl == Ctrl::Bra && in.target < target_.size())
            target_[in.target] = true;
}

LoadFmaChain LoadFmaChains::at(std::uint32_t pc, std::uint32_t plain) const
{
    LoadFmaChain c;
    if (plain < 3 || !step(&code_[pc]))
        return c;
    // A branch into the first step (after its first instruction): that step alone, every
    // register kept. Otherwise no step with a branch into it joins the chain.
    const bool entered = target_[pc + 1] || target_[pc + 2];
    // No write of the chain is an address of its loads: every address is read before any
    // step writes.
    std::vector<std::uint32_t> addresses, writes;
    auto has = [](const std::vector<std::uint32_t>& v, std::uint32_t r) { return std::ranges::find(v, r) != v.end(); };
    const std::uint32_t most = entered ? 1 : LoadFmaChain::kMaxSteps;
    for (std::uint32_t t = 0; t < most && 3 * (t + 1) <= plain; ++t) {
        const std::uint32_t at = pc + 3 * t;
        const Instr* s = &code_[at];
        if (t > 0 && (!step(s) || s[2].a[2] != s[-1].d[0] || target_[at] || target_[at + 1] || target_[at + 2]))
            break;
        const std::uint32_t addr[2] = {s[0].addr, s[1].addr}, wrote[3] = {s[0].d[0], s[1].d[0], s[2].d[0]};
        if (std::ranges::any_of(wrote,
                                [&](std::uint32_t r) { return has(addresses, r) || r == addr[0] || r == addr[1]; })
            || std::ranges::any_of(addr, [&](std::uint32_t r) { return has(writes, r); }))
            break;
        addresses.insert(addresses.end(), std::begin(addr), std::end(addr));
        writes.insert(writes.end(), std::begin(wrote), std::end(wrote));
        c.steps = t + 1;
    }
    c.live = (std::uint64_t(1) << writes.size()) - 1;
    if (c.steps == 0 || entered) // none (a step writing its own address), or every register kept
        return c;
    const std::uint32_t end = pc + 3 * c.steps, carriedIn = code_[pc + 2].a[2];
    for (std::uint32_t i = 0; i < writes.size(); ++i) {
        const std::uint32_t r = writes[i];
        if (r >= RegFirstUser && r != carriedIn && mentions_.onlyWithin(r, pc, end))
            c.live &= ~(std::uint64_t(1) << i);
    }
    return c;
}

} // namespace kw::sim
