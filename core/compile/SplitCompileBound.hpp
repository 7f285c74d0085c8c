#pragma once
// NVRTC's --split-compile=N starts N threads; a huge N crashes or hangs it. N is bounded
// by this machine's cores, and the bound is said, not applied silently.
#include "compile/Diagnostic.hpp"

#include <string>
#include <vector>

namespace kw {

class SplitCompileBound {
public:
    // Lowers every --split-compile above `cores` in `args` to `cores`; one note per change,
    // naming the source file.
    static std::vector<Diagnostic> apply(std::vector<std::string>& args, unsigned cores, const std::string& sourceName);
    // Takes every --split-compile out of `args`; says whether there was one.
    static bool remove(std::vector<std::string>& args);
    // This machine's cores (at least 1).
    static unsigned machineCores();
};

} // namespace kw
