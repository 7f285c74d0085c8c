#pragma once
// Reads ptxas's verbose report out of an NVRTC log: registers, stack, spills and
// static shared memory per kernel. The report is what the hardware will get, unlike
// the virtual registers a PTX module declares.
#include "compile/KernelResources.hpp"

#include <string_view>
#include <vector>

namespace kw {

// One element per "Compiling entry function" in `log`, in order; empty when the
// log has no report (a compile for a virtual architecture). Never throws.
std::vector<KernelResources> parsePtxasReport(std::string_view log);

} // namespace kw
