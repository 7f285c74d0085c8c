#pragma once
// f16 and f16x2 arithmetic and comparisons (ArithmeticHandlers picks them for those types).
#include "sim/ArithmeticHandlers.hpp"

namespace kw::sim {

// add sub mul min max neg abs and mad/fma (Mad); nullptr for the others.
Handler halfArithHandler(ArithOp op);
void hHalfSetp(Warp& w, const Instr& in, std::uint32_t mask);
void hHalfSet(Warp& w, const Instr& in, std::uint32_t mask);

} // namespace kw::sim
