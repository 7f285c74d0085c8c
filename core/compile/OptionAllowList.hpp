#pragma once
// The compile options a document from elsewhere may ask for: those that neither
// name a path nor write a file. Anything else is refused with a message naming
// the option, so nothing a downloaded document says reaches NVRTC unchecked.
#include "compile/CompileOptions.hpp"

#include <optional>
#include <string>

namespace kw {

class OptionAllowList {
public:
    // Why one NVRTC option is refused, or nullopt when it is allowed.
    static std::optional<std::string> refuse(const std::string& option);

    // Checks every field of a document's options; throws kw::Error(Untrusted)
    // naming the field (options.extra[2], options.defines...) and the option.
    static void check(const CompileOptions& options);
};

} // namespace kw
