#pragma once
// Cross-checks a kernel's parameters, as read from the source, with the PTX
// .entry NVRTC produced, so a wrong argument is never passed silently.
#include "compile/KernelSignature.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

// Bytes of a scalar or CUDA vector type as a kernel parameter ("float" 4,
// "unsigned long long" 8, "float4" 16, "__half" 2); 0 when unknown here
// (a struct, a template parameter).
std::size_t paramTypeSize(std::string_view baseType);

// One message per disagreement, naming the parameter; empty when the two agree.
// Pointers must be pointer-sized; parameters of unknown type are checked for
// presence only.
std::vector<std::string> crossCheck(const KernelSignature& kernel, const PtxEntry& entry);

} // namespace kw
