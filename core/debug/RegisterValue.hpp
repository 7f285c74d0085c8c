#pragma once
// A PTX register of one lane as its declared type reads it (.f32 bits as a float, .s32
// as a signed number, .pred as 0 or 1); registers without a type (the special ones)
// read as unsigned 32-bit numbers.
#include "debug/DebugTypes.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>

namespace kw::debug {

// The number alone (conditions evaluate it for every lane at a breakpoint).
double registerNumber(sim::PtxType type, std::uint64_t bits);
LaneValue registerValue(sim::PtxType type, std::uint64_t bits);

} // namespace kw::debug
