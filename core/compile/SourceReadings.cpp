#include "compile/SourceReadings.hpp"

#include <algorithm>

namespace kw {

namespace {

char trigraph(char c)
{
    switch (c) {
    case '=': return '#';
    case '/': return '\\';
    case '\'': return '^';
    case '(': return '[';
    case ')': return ']';
    case '!': return '|';
    case '<': return '{';
    case '>': return '}';
    case '-': return '~';
    default: return '\0';
    }
}

std::string replaceTrigraphs(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '?' && i + 2 < text.size() && text[i + 1] == '?') {
            if (const char c = trigraph(text[i + 2])) {
                out += c;
                i += 2;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

// Length of the line end at `i` ("\r\n", "\n", a lone "\r" when `loneCr`), or 0.
std::size_t lineEnd(std::string_view s, std::size_t i, bool loneCr)
{
    if (i >= s.size())
        return 0;
    if (s[i] == '\n')
        return 1;
    if (s[i] == '\r')
        return i + 1 < s.size() && s[i + 1] == '\n' ? 2 : (loneCr ? 1 : 0);
    return 0;
}

} // namespace

std::string SourceReadings::read(std::string_view text, bool trigraphs, bool looseSplices)
{
    const std::string replaced = trigraphs ? replaceTrigraphs(text) : std::string(text);
    const std::string_view s = replaced;
    std::string out;
    out.reserve(s.size());
    int owed = 0; // line ends removed by splices, given back at the end of the logical line
    for (std::size_t i = 0; i < s.size();) {
        if (s[i] == '\\') {
            std::size_t j = i + 1;
            if (looseSplices)
                while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f' || s[j] == '\v'))
                    ++j;
            if (const std::size_t n = lineEnd(s, j, looseSplices)) {
                ++owed;
                i = j + n;
                continue;
            }
        }
        if (const std::size_t n = lineEnd(s, i, looseSplices)) {
            out += '\n';
            out.append(std::size_t(owed), '\n');
            owed = 0;
            i += n;
            continue;
        }
        out += s[i++];
    }
    out.append(std::size_t(owed), '\n');
    return out;
}

std::vector<std::string> SourceReadings::of(std::string_view text)
{
    std::vector<std::string> readings;
    for (const bool trigraphs : {false, true})
        for (const bool loose : {false, true}) {
            std::string r = read(text, trigraphs, loose);
            if (std::find(readings.begin(), readings.end(), r) == readings.end())
                readings.push_back(std::move(r));
        }
    return readings;
}

} // namespace kw
