#pragma once
// The second half of the host/device split, decided by the compiler itself: NVRTC names
// each unannotated function ("host functions are not allowed in JIT mode") and each
// unannotated namespace-scope variable ("host variables are not allowed") that the first
// pass (HostCodeFilter) kept. Each named declaration is blanked whole, from where it
// begins to its body's closing brace or its semicolon, every line kept; then the source
// is compiled again. Only what NVRTC itself calls host code is ever removed, so no
// device line changes; a device line that used it then fails at its own line.
#include "compile/Diagnostic.hpp"
#include "compile/HostCodeFilter.hpp"

#include <string>
#include <vector>

namespace kw {

class NvrtcHostRemoval {
public:
    // The declarations of `text` that `diagnostics` of file `sourceName` call host code,
    // blanked in `text` and appended to `removed`. False when there was none to remove.
    static bool apply(std::string& text, const std::string& sourceName, const std::vector<Diagnostic>& diagnostics,
                      std::vector<HostCodeRange>& removed);
};

} // namespace kw
