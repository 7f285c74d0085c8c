#pragma once
// What one preprocessor directive says about a file it includes: the one reader of
// `#include`, `#include_next` and `#import` lines (also spelled `%:include`).
#include <string>
#include <string_view>

namespace kw {

struct IncludeDirective {
    enum class Word { None, Include, IncludeNext, Import };
    Word word = Word::None; // None: the text is not an include directive
    bool quoted = false;    // "name" rather than <name>
    bool computed = false;  // #include MACRO: no name to read
    std::string name;       // as written between the quotes or angle brackets

    bool isInclude() const { return word != Word::None; }
    // `#include "x"` or `#include <x>` with a name: the directive a header scanner follows.
    bool isPlainInclude() const { return word == Word::Include && !computed && !name.empty(); }

    // `text` is one directive as the lexer gives it (from '#' to the end of the line).
    static IncludeDirective read(std::string_view text);
};

} // namespace kw
