#pragma once
// Leaves one whole declaration out of what the device compile sees, keeping every line
// where it was: its characters become spaces, its line breaks stay, and the
// preprocessor directives inside it (a #define in main, an #if around a host call)
// stay too, since the compiler would have applied them to the code after it.
#include "compile/SourceLexer.hpp"

#include <string>
#include <vector>

namespace kw {

class DeclarationBlanker {
public:
    // Blanks the bytes of tokens[first..last] in `text` (which `tokens` were lexed
    // from). A #include inside is blanked with the rest; so is tokens[first] itself
    // when it is a directive (an #include left out on its own).
    static void blank(std::string& text, const std::vector<SourceToken>& tokens, std::size_t first, std::size_t last);
};

} // namespace kw
