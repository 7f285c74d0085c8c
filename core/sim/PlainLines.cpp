#include "sim/PlainLines.hpp"

#include "sim/ArithmeticHandlers.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"

namespace kw::sim {

namespace {

bool plain(const Instr& in) { return in.ctrl == Ctrl::None && in.fn && in.guard < 0 && !in.warpSync && !in.polls; }

// A scalar load of an unsigned 32-bit value (a sign-extending one would widen differently).
bool loadOf32Bits(const Instr& in)
{
    return in.fn == &hLoad && in.vec == 1 && in.elemSize == 4 && !isSigned(in.type) && !in.negMask;
}

// ld.f32 x; ld.f32 y; fma.rn.f32 d, x, y, c (or y, x): the tiled product's inner step. The
// second address is not the first value, c is neither value and the values differ, so the
// fused handler may read every operand before it writes.
bool loadLoadFma(const Instr* at)
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

PlainLines::PlainLines(const std::vector<Instr>& code)
    : length_(code.size() + 1, 0)
    , fused_(code.size() + 1)
{
    for (std::size_t pc = code.size(); pc-- > 0;)
        length_[pc] = plain(code[pc]) ? length_[pc + 1] + 1 : 0;
    for (std::size_t pc = 0; pc < code.size(); ++pc)
        if (length_[pc] >= 3 && loadLoadFma(&code[pc]))
            fused_[pc] = {&hLoadLoadFmaF32, 3};
}

} // namespace kw::sim
