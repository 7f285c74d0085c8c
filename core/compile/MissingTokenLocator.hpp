#pragma once
// NVRTC reports a missing `;` (or `)`, `]`, `}`) at the token after the gap, which is
// often on the next line. This moves such a diagnostic back to the end of the previous
// token, where the user forgot the character.
#include "compile/Diagnostic.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kw {

class MissingTokenLocator {
public:
    // True when the message says a token was expected and not found ("expected a \";\"").
    static bool meansMissingToken(std::string_view message);
    // Moves the diagnostics of sourceName that mean a missing token and sit at the start
    // of a later line than the previous token onto that token's last character.
    // Applying it twice changes nothing more.
    static void relocate(std::vector<Diagnostic>& diagnostics, std::string_view source, const std::string& sourceName);
};

} // namespace kw
