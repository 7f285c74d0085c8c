#pragma once
// Parses the PTX text NVRTC produces into a decoded Module.
#include "sim/PtxModule.hpp"

#include <string_view>

namespace kw::sim {

// Throws kw::Error (Simulator) for text it cannot parse; instructions it cannot
// execute become Ctrl::Unsupported and fault only when reached.
Module parsePtx(std::string_view text);

} // namespace kw::sim
