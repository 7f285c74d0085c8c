#include "compile/MissingTokenLocator.hpp"
#include "util/Text.hpp"

#include <string>

namespace kw {

namespace {
// The line without a // comment and trailing blanks (a "//" inside a string is rare
// enough on a line that ends a statement to be ignored).
std::string_view code(std::string_view line)
{
    if (const auto c = line.find("//"); c != std::string_view::npos)
        line = line.substr(0, c);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
        line.remove_suffix(1);
    return line;
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }
} // namespace

bool MissingTokenLocator::meansMissingToken(std::string_view m)
{
    for (const char* token : {"expected a \";\"", "expected a \")\"", "expected a \"]\"", "expected a \"}\""})
        if (m.find(token) != std::string_view::npos)
            return true;
    return false;
}

void MissingTokenLocator::relocate(std::vector<Diagnostic>& diagnostics, std::string_view source,
                                   const std::string& sourceName)
{
    const std::vector<std::string_view> lines = splitLines(source);
    for (Diagnostic& d : diagnostics) {
        if (d.file != sourceName || d.line <= 1 || d.line > int(lines.size()) || !meansMissingToken(d.message))
            continue;
        // Only when nothing but blanks comes before the reported token on its line.
        const std::string_view here = lines[std::size_t(d.line - 1)];
        const std::size_t col = d.column > 0 ? std::size_t(d.column - 1) : here.find_first_not_of(" \t");
        if (!blank(here.substr(0, std::min(col, here.size()))))
            continue;
        for (int l = d.line - 1; l >= 1; --l) {
            const std::string_view prev = code(lines[std::size_t(l - 1)]);
            if (blank(prev))
                continue;
            d.line = l;
            d.column = int(prev.size());
            break;
        }
    }
}

} // namespace kw
