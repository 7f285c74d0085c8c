#include "compile/IncludeDirective.hpp"

#include <cctype>

namespace kw {

namespace {
std::size_t skipSpace(std::string_view s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\f' || s[p] == '\v'))
        ++p;
    return p;
}

IncludeDirective::Word wordOf(std::string_view w)
{
    if (w == "include")
        return IncludeDirective::Word::Include;
    if (w == "include_next")
        return IncludeDirective::Word::IncludeNext;
    if (w == "import")
        return IncludeDirective::Word::Import;
    return IncludeDirective::Word::None;
}
} // namespace

IncludeDirective IncludeDirective::read(std::string_view d)
{
    IncludeDirective out;
    std::size_t p = skipSpace(d, 0);
    if (d.substr(p, 1) == "#")
        p += 1;
    else if (d.substr(p, 2) == "%:")
        p += 2;
    else
        return out;
    p = skipSpace(d, p);
    std::size_t end = p;
    while (end < d.size() && (std::isalnum(static_cast<unsigned char>(d[end])) || d[end] == '_'))
        ++end;
    out.word = wordOf(d.substr(p, end - p));
    if (out.word == Word::None)
        return out;
    p = skipSpace(d, end);
    const char open = p < d.size() ? d[p] : '\0';
    const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
    const std::size_t stop = close ? d.find(close, p + 1) : std::string_view::npos;
    if (stop == std::string_view::npos) {
        out.computed = true;
        return out;
    }
    out.quoted = open == '"';
    out.name = std::string(d.substr(p + 1, stop - p - 1));
    return out;
}

} // namespace kw
