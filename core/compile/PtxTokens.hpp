#pragma once
// PTX text as tokens: the one reading of PTX's lexical rules (comments, strings, numbers,
// directives written together as in ".reg.b32"), for the simulator's parser and the
// readers of declarations alike.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kw::ptx {

struct Token {
    enum Kind { Ident, Number, String, Punct, End } kind = End;
    std::string text;
    int line = 0; // line in the PTX text, for messages
};

// The tokens of `s`, comments left out, ending with one End token.
std::vector<Token> tokenize(std::string_view s);

// ".reg", ".align", ".b32": a directive or a modifier, never a name.
bool isDirective(const Token& t);

// A decimal or 0x hexadecimal number; saturates at 2^64 - 1.
std::uint64_t parseUnsigned(const std::string& s);

} // namespace kw::ptx
