#include "grade/SealedText.hpp"

#include "util/Error.hpp"

#include <string_view>

namespace kw::grade {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

} // namespace

std::string SealedText::seal(const std::string& text)
{
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < text.size(); i += 3) {
        const unsigned v = (unsigned char)text[i] << 16 | (unsigned char)text[i + 1] << 8 | (unsigned char)text[i + 2];
        for (int s = 18; s >= 0; s -= 6)
            out += kAlphabet[(v >> s) & 63];
    }
    if (i < text.size()) {
        unsigned v = (unsigned char)text[i] << 16;
        if (i + 1 < text.size())
            v |= (unsigned char)text[i + 1] << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < text.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string SealedText::open(const std::string& sealed, const std::string& field)
{
    std::string out;
    unsigned v = 0;
    int bits = 0;
    for (const char c : sealed) {
        if (c == '=' || c == '\n' || c == '\r' || c == ' ')
            continue;
        const auto at = kAlphabet.find(c);
        if (at == std::string_view::npos)
            throw Error(ErrorCategory::Document, field + ": not Base64 (the character '" + std::string(1, c) + "')");
        v = (v << 6) | unsigned(at);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((v >> bits) & 0xff);
        }
    }
    return out;
}

} // namespace kw::grade
