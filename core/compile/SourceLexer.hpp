#pragma once
// A small C++ tokenizer for scanning CUDA sources (kernel signatures, printf
// calls, quoted includes). It does not preprocess; comments are dropped and
// each preprocessor directive comes back as one token.
#include <string_view>
#include <vector>

namespace kw {

struct SourceToken {
    enum class Kind { Identifier, Number, String, Char, Punct, Directive };
    Kind kind;
    std::string_view text;  // view into the lexed source
    std::size_t offset = 0; // byte offset of the first character
    int line = 1;           // 1-based
    int column = 1;         // 1-based byte column
};

// Splits `source` into tokens. String tokens include their quotes and any
// encoding prefix (u8"", L"", R"(...)"). Never throws; an unterminated
// comment or literal ends at the end of the source.
std::vector<SourceToken> lexSource(std::string_view source);

} // namespace kw
