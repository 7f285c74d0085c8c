#include "compile/NvrtcHostRemoval.hpp"

#include "compile/DeclarationBlanker.hpp"
#include "compile/SourceLexer.hpp"

#include <optional>

namespace kw {

namespace {

enum class HostKind { Function, Variable };

std::optional<HostKind> hostKind(const Diagnostic& d)
{
    if (d.severity != Severity::Error)
        return std::nullopt;
    if (d.message.find("host functions are not allowed in JIT mode") != std::string::npos)
        return HostKind::Function;
    if (d.message.find("host variables are not allowed in JIT mode") != std::string::npos)
        return HostKind::Variable;
    return std::nullopt;
}

bool isPunct(const SourceToken& t, std::string_view p) { return t.kind == SourceToken::Kind::Punct && t.text == p; }

bool opens(const SourceToken& t) { return isPunct(t, "(") || isPunct(t, "[") || isPunct(t, "{"); }
bool closes(const SourceToken& t) { return isPunct(t, ")") || isPunct(t, "]") || isPunct(t, "}"); }

// The first token at or after (line, column).
std::optional<std::size_t> tokenAt(const std::vector<SourceToken>& tokens, int line, int column)
{
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i].line > line || (tokens[i].line == line && tokens[i].column >= column))
            return i;
    return std::nullopt;
}

// The declaration around token `at`: back to the end of the one before it (a `;`, a `}`
// or an unmatched `{` at this depth, an access label, a directive), forward to the
// closing brace of its body (a function) or its `;` (a variable, a prototype).
std::optional<std::pair<std::size_t, std::size_t>> declarationAround(const std::vector<SourceToken>& t, std::size_t at,
                                                                     HostKind kind)
{
    std::size_t first = at;
    int depth = 0;
    for (std::size_t i = at; i-- > 0;) {
        if (closes(t[i])) {
            if (depth == 0 && isPunct(t[i], "}"))
                break; // the previous declaration's body
            ++depth;
            first = i;
            continue;
        }
        if (opens(t[i])) {
            if (depth == 0)
                break; // the scope the declaration stands in
            --depth;
            first = i;
            continue;
        }
        if (depth == 0
            && (isPunct(t[i], ";") || t[i].kind == SourceToken::Kind::Directive
                || (isPunct(t[i], ":") && i > 0
                    && (t[i - 1].text == "public" || t[i - 1].text == "private" || t[i - 1].text == "protected"))))
            break;
        first = i;
    }
    depth = 0;
    bool initList = false; // a constructor's ": a(0), b{1}" before its body
    for (std::size_t i = at; i < t.size(); ++i) {
        if (t[i].kind == SourceToken::Kind::Directive)
            return std::nullopt; // a directive inside: not a plain declaration
        if (depth == 0 && isPunct(t[i], ";"))
            return std::pair{first, i};
        if (depth == 0 && kind == HostKind::Function && isPunct(t[i], ":"))
            initList = true;
        if (opens(t[i])) {
            const bool body = depth == 0 && kind == HostKind::Function && isPunct(t[i], "{")
                              && !(initList && i > 0 && t[i - 1].kind == SourceToken::Kind::Identifier);
            ++depth;
            if (body) {
                for (std::size_t j = i + 1; j < t.size(); ++j) {
                    if (opens(t[j]))
                        ++depth;
                    else if (closes(t[j]) && --depth == 0)
                        return std::pair{first, j};
                }
                return std::nullopt;
            }
            continue;
        }
        if (closes(t[i]) && --depth < 0)
            return std::nullopt;
    }
    return std::nullopt;
}

std::string nameOf(const std::vector<SourceToken>& t, std::size_t at)
{
    return t[at].kind == SourceToken::Kind::Identifier ? std::string(t[at].text) : std::string();
}

} // namespace

bool NvrtcHostRemoval::apply(std::string& text, const std::string& sourceName,
                             const std::vector<Diagnostic>& diagnostics, std::vector<HostCodeRange>& removed)
{
    const std::vector<SourceToken> tokens = lexSource(text);
    std::vector<std::pair<std::size_t, std::size_t>> spans; // byte ranges, inclusive
    std::vector<std::pair<std::size_t, std::size_t>> declarations; // token ranges
    std::vector<HostCodeRange> ranges;
    for (const Diagnostic& d : diagnostics) {
        const auto kind = hostKind(d);
        if (!kind || d.file != sourceName || d.line <= 0)
            continue;
        const auto at = tokenAt(tokens, d.line, d.column > 0 ? d.column : 1);
        if (!at)
            continue;
        const auto decl = declarationAround(tokens, *at, *kind);
        if (!decl)
            continue;
        const std::size_t begin = tokens[decl->first].offset;
        const std::size_t end = tokens[decl->second].offset + tokens[decl->second].text.size() - 1;
        bool overlaps = false;
        for (const auto& [b, e] : spans)
            overlaps = overlaps || (begin <= e && b <= end);
        if (overlaps)
            continue;
        spans.emplace_back(begin, end);
        declarations.push_back(*decl);
        const std::string name = nameOf(tokens, *at);
        ranges.push_back({tokens[decl->first].line, tokens[decl->second].line,
                          (*kind == HostKind::Function ? "function" : "variable") + (name.empty() ? "" : " " + name)});
    }
    for (const auto& [first, last] : declarations)
        DeclarationBlanker::blank(text, tokens, first, last);
    removed.insert(removed.end(), ranges.begin(), ranges.end());
    return !spans.empty();
}

} // namespace kw
