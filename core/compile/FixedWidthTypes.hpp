#pragma once
// Device code that uses uint32_t and its kind without including <stdint.h> or <cstdint>
// compiles under nvcc when a host header brought them: <iostream> does, through <cstdint>,
// with GCC's library; so does a framework's header (<torch/extension.h>). Such headers are
// left out of the device compile. When NVRTC then finds a fixed-width type undefined,
// <stdint.h> is compiled in place of the first host header left out, with a note at its
// line saying so: the types have one meaning, so nothing else can change. Without a host
// header left out the error stays, as it would under nvcc.
#include "compile/Diagnostic.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

class FixedWidthTypes {
public:
    // The name of a fixed-width type or macro of <stdint.h> that an error of `diagnostics`
    // finds undefined, or "".
    static std::string undefinedName(const std::vector<Diagnostic>& diagnostics);

    // Puts `#include <stdint.h>` on the line of the first host header left out of `text`
    // and returns the note for that line: a line of `blanked` (host includes blanked
    // out; one that holds a device part in their place is not taken) or of `standIns`
    // (includes of empty stand-ins) in file `sourceName`. nullopt when `diagnostics` name
    // no fixed-width type or no such line exists.
    static std::optional<Diagnostic> includeInPlace(std::string& text, const std::string& sourceName,
                                                    const std::vector<Diagnostic>& diagnostics,
                                                    const std::vector<int>& blanked, const std::vector<int>& standIns);
};

} // namespace kw
