#pragma once
// A source variable's value for one lane, read where SourceVariables says it is and
// shown as its DWARF type reads (int signed, unsigned, float, double, bool as
// true/false, a pointer as its address in hex). An array's element i is read the same
// way. Throws kw::Error (Usage) for a variable that has no value here, an element
// outside the array or its memory, or a type that has no single value (a struct).
#include "debug/DebugTypes.hpp"
#include "debug/SourceVariables.hpp"

#include <cstdint>

namespace kw::sim {
struct Warp;
}

namespace kw::debug {

LaneValue sourceValue(const VisibleVariable& v, const sim::Warp& w, int lane);
LaneValue sourceElement(const VisibleVariable& v, const sim::Warp& w, int lane, double index);
// The value's text, or why there is none ("not available here"), for a table's cell.
std::string sourceText(const VisibleVariable& v, const sim::Warp& w, int lane);

} // namespace kw::debug
