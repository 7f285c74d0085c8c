#pragma once
// Turns NVRTC's log into located diagnostics.
#include "compile/Diagnostic.hpp"

#include <string_view>
#include <vector>

namespace kw {

// Parses an NVRTC log such as
//   kernel.cu(5): error: identifier "b" is undefined
//         a[i] = b[i] + 1.0f;
//                ^
//           detected during instantiation of "..." at line 13
// The column comes from the caret line under the echoed source line; indented
// lines after the caret ("detected during ...") become notes of that diagnostic.
// Summary lines ("1 error detected in the compilation of ...") are skipped.
std::vector<Diagnostic> parseNvrtcLog(std::string_view log);

} // namespace kw
