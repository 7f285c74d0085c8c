#pragma once
// Reads the .entry directives of a PTX module: each kernel's lowered name and
// its parameters' byte sizes and alignments, to cross-check launch arguments.
#include "compile/KernelSignature.hpp"

#include <string_view>
#include <vector>

namespace kw {

// Every .entry in `ptx`, in order. Never throws; an entry whose parameter list
// cannot be read is returned with the parameters read so far.
std::vector<PtxEntry> parsePtxEntries(std::string_view ptx);

} // namespace kw
