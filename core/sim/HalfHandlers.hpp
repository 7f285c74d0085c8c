#pragma once
// f16, f16x2, bf16 and bf16x2 arithmetic and comparisons (ArithmeticHandlers picks them
// for those types).
#include "sim/ArithmeticHandlers.hpp"

namespace kw::sim {

// add sub mul min max neg abs tanh ex2 and mad/fma (Mad) of type t; nullptr for the others.
Handler halfArithHandler(ArithOp op, PtxType t);
// setp and set with a 16-bit float source of type t.
Handler halfSetpHandler(PtxType t);
Handler halfSetHandler(PtxType t);

} // namespace kw::sim
