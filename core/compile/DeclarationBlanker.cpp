#include "compile/DeclarationBlanker.hpp"

namespace kw {

namespace {

// "#include ...", "# include ...", also a computed one.
bool isInclude(std::string_view directive)
{
    std::size_t i = 1;
    while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t'))
        ++i;
    return directive.substr(i, 7) == "include";
}

} // namespace

void DeclarationBlanker::blank(std::string& text, const std::vector<SourceToken>& tokens, std::size_t first,
                               std::size_t last)
{
    if (first > last || last >= tokens.size())
        return;
    auto spaces = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end && k < text.size(); ++k)
            if (text[k] != '\n' && text[k] != '\r')
                text[k] = ' ';
    };
    std::size_t from = tokens[first].offset;
    for (std::size_t i = first + 1; i <= last; ++i) {
        const SourceToken& t = tokens[i];
        if (t.kind != SourceToken::Kind::Directive || isInclude(t.text))
            continue;
        spaces(from, t.offset);
        from = t.offset + t.text.size();
    }
    spaces(from, tokens[last].offset + tokens[last].text.size());
}

} // namespace kw
