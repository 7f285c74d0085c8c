#include "compile/PtxTokens.hpp"

#include <cctype>
#include <cstdlib>

namespace kw::ptx {

std::vector<Token> tokenize(std::string_view s)
{
    std::vector<Token> out;
    int line = 1;
    std::size_t i = 0, n = s.size();
    auto identChar
        = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; };
    // A modifier may hold "::" (`.shared::cta`, `.L2::128B`): it stays in its token, where a
    // single ':' would end a label.
    auto scopedAt = [&](std::size_t j) {
        return j + 2 < n && s[j] == ':' && s[j + 1] == ':' && identChar(s[j + 2]) && s[j + 2] != '.';
    };
    while (i < n) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] == '\n')
                    ++line;
                ++i;
            }
            i += 2;
            continue;
        }
        Token t;
        t.line = line;
        if (c == '"') {
            std::size_t j = i + 1;
            while (j < n && s[j] != '"') {
                if (s[j] == '\\')
                    ++j;
                ++j;
            }
            t.kind = Token::String;
            t.text = std::string(s.substr(i + 1, j - i - 1));
            i = j + 1;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < n && identChar(s[j]))
                ++j;
            t.kind = Token::Number;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else if (c == '.') {
            // Directives and their modifiers may be written together (".reg.b32"): split them.
            std::size_t j = i + 1;
            while (j < n && ((identChar(s[j]) && s[j] != '.') || scopedAt(j)))
                j += scopedAt(j) ? 2 : 1;
            t.kind = Token::Ident;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%') {
            std::size_t j = i + 1;
            while (j < n && (identChar(s[j]) || scopedAt(j)))
                j += scopedAt(j) ? 2 : 1;
            t.kind = Token::Ident;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else {
            t.kind = Token::Punct;
            t.text = std::string(1, c);
            ++i;
        }
        out.push_back(std::move(t));
    }
    Token end;
    end.line = line;
    out.push_back(end);
    return out;
}

bool isDirective(const Token& t) { return t.kind == Token::Ident && !t.text.empty() && t.text[0] == '.'; }

std::uint64_t parseUnsigned(const std::string& s)
{
    return std::strtoull(s.c_str(), nullptr, (s.size() > 2 && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
}

} // namespace kw::ptx
