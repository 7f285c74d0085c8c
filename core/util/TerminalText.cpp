#include "util/TerminalText.hpp"

namespace kw {

namespace {

void hexByte(std::string& out, unsigned char c)
{
    static const char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 0xf];
}

} // namespace

std::string TerminalText::escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    int continuation = 0; // bytes still owed to the UTF-8 character begun
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80 && c <= 0xbf && continuation > 0) {
            --continuation;
            out += char(c);
            continue;
        }
        continuation = 0;
        if (c == '\n' || c == '\t') {
            out += char(c);
        } else if (c < 0x20 || c == 0x7f) {
            hexByte(out, c);
        } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
                   && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            hexByte(out, c); // a C1 control in UTF-8: both bytes shown
            hexByte(out, static_cast<unsigned char>(text[++i]));
        } else if (c >= 0x80 && c <= 0x9f) {
            hexByte(out, c); // a lone byte: a C1 control for a terminal in an 8-bit mode
        } else {
            if (c >= 0xc2 && c <= 0xf4)
                continuation = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
            out += char(c);
        }
    }
    return out;
}

} // namespace kw
