#include "compile/NvrtcHostRemoval.hpp"

#include "compile/DeclarationBlanker.hpp"
#include "compile/SourceLexer.hpp"

#include <algorithm>
#include <optional>

namespace kw {

namespace {

// NamesHostType: a declaration that is not device code names what only a host header
// declares (`identifier "FILE" is undefined` for a typedef of pthread_t or a struct holding
// a FILE*; `namespace "std" has no member "cout"` for `using std::cout;`). InstanceOfHost:
// an explicit instantiation of a function template that was left out as host code.
enum class HostKind { Function, Variable, NamesHostType, InstanceOfHost };

struct Verdict {
    HostKind kind;
    std::string name; // what the declaration names ("FILE", "std::cout") or instantiates ("launch")
};

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

bool startsWith(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }

bool endsWith(const std::string& s, std::string_view p)
{
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// The text inside the n-th pair of double quotes: (`namespace "std" has no member "cout"`, 1) -> cout.
std::string quoted(const std::string& message, int n)
{
    std::size_t open = message.find('"');
    for (int i = 0; i < n && open != std::string::npos; ++i)
        open = message.find('"', message.find('"', open + 1) + 1);
    const std::size_t close = open == std::string::npos ? open : message.find('"', open + 1);
    return close == std::string::npos ? std::string() : message.substr(open + 1, close - open - 1);
}

bool isPunct(const SourceToken& t, std::string_view p) { return t.kind == SourceToken::Kind::Punct && t.text == p; }

// What NVRTC's error `d`, at token `at`, says about the declaration there, if it calls it
// host code; `removed` is what was left out as host code so far.
std::optional<Verdict> verdict(const Diagnostic& d, const std::vector<SourceToken>& tokens, std::size_t at,
                               const std::vector<HostCodeRange>& removed)
{
    const std::string& m = d.message;
    if (d.severity != Severity::Error)
        return std::nullopt;
    if (contains(m, "host functions are not allowed in JIT mode"))
        return Verdict{HostKind::Function, {}};
    if (contains(m, "host variables are not allowed in JIT mode"))
        return Verdict{HostKind::Variable, {}};
    if (startsWith(m, "identifier \"") && contains(m, "\" is undefined"))
        return Verdict{HostKind::NamesHostType, quoted(m, 0)};
    // The C++ library's namespace only: a project's namespace without the member is its own error.
    if ((startsWith(m, "namespace \"std\"") || startsWith(m, "namespace \"std::"))
        && contains(m, "\" has no member \""))
        return Verdict{HostKind::NamesHostType, quoted(m, 0) + "::" + quoted(m, 1)};
    // `typedef std::vector<float> Floats;` with <vector> left out reads as an expression.
    if (m == "qualified name is not allowed" && tokens[at].text == "std" && at + 2 < tokens.size()
        && isPunct(tokens[at + 1], "::") && tokens[at + 2].kind == SourceToken::Kind::Identifier)
        return Verdict{HostKind::NamesHostType, "std::" + std::string(tokens[at + 2].text)};
    // `template void launch<int>(int*, int);` once the host template `launch` was left out.
    if (constexpr std::string_view notTemplate = " is not a template"; endsWith(m, notTemplate)) {
        const std::string name = m.substr(0, m.size() - notTemplate.size());
        for (const HostCodeRange& r : removed)
            if (r.what == "function " + name)
                return Verdict{HostKind::InstanceOfHost, name};
    }
    return std::nullopt;
}

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
    bool assigned = false; // an `=` initialiser: a `{` in it is not a body (a lambda's)
    for (std::size_t i = at; i < t.size(); ++i) {
        assigned = assigned || (depth == 0 && isPunct(t[i], "="));
        if (t[i].kind == SourceToken::Kind::Directive)
            return std::nullopt; // a directive inside: not a plain declaration
        if (depth == 0 && isPunct(t[i], ";"))
            return std::pair{first, i};
        if (depth == 0 && kind == HostKind::Function && isPunct(t[i], ":"))
            initList = true;
        if (opens(t[i])) {
            // A "variable" whose parenthesised initialiser is followed by a body is a function
            // whose parameter types NVRTC does not know (`void f(torch::Tensor a) {`).
            const bool function = kind == HostKind::Function || (!assigned && i > 0 && isPunct(t[i - 1], ")"));
            const bool body = depth == 0 && function && isPunct(t[i], "{")
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

bool isIdent(const SourceToken& t, std::string_view name)
{
    return t.kind == SourceToken::Kind::Identifier && t.text == name;
}

// The `{` at `brace` opens a namespace (named, nested or anonymous) or an extern "C" block.
bool opensNamespace(const std::vector<SourceToken>& t, std::size_t brace)
{
    std::size_t i = brace;
    while (i > 0 && (t[i - 1].kind == SourceToken::Kind::Identifier || isPunct(t[i - 1], "::"))) {
        if (isIdent(t[i - 1], "namespace"))
            return true;
        --i;
    }
    return i >= 2 && t[i - 1].kind == SourceToken::Kind::String && isIdent(t[i - 2], "extern");
}

// The namespace-scope declaration that token `at` stands in: a typedef, a variable or a
// prototype to its `;`, a function to its body's `}`, a class to the `;` after its body.
std::optional<std::pair<std::size_t, std::size_t>> namespaceScopeDeclaration(const std::vector<SourceToken>& t,
                                                                             std::size_t at)
{
    std::vector<std::pair<std::size_t, bool>> scopes; // each open `{`, and whether a namespace's
    for (std::size_t i = 0; i < at; ++i) {
        if (isPunct(t[i], "{"))
            scopes.emplace_back(i, opensNamespace(t, i));
        else if (isPunct(t[i], "}") && !scopes.empty())
            scopes.pop_back();
    }
    const auto outer = std::find_if(scopes.begin(), scopes.end(), [](const auto& s) { return !s.second; });
    if (outer == scopes.end())
        return declarationAround(t, at, HostKind::Variable);
    const auto decl = declarationAround(t, outer->first, HostKind::Function);
    if (!decl)
        return std::nullopt;
    bool function = false;
    for (std::size_t i = decl->first; i < outer->first; ++i) {
        if (isIdent(t[i], "struct") || isIdent(t[i], "class") || isIdent(t[i], "union") || isIdent(t[i], "enum")
            || isPunct(t[i], "=")) {
            function = false;
            break;
        }
        function = function || isPunct(t[i], "(");
    }
    if (function)
        return decl;
    for (std::size_t j = decl->second + 1; j < t.size(); ++j) { // `struct S {...} s;`
        if (isPunct(t[j], ";"))
            return std::pair{decl->first, j};
        if (t[j].kind == SourceToken::Kind::Directive || isPunct(t[j], "{") || isPunct(t[j], "}"))
            return std::nullopt;
    }
    return std::nullopt;
}

// Only plain host declarations: no device or host-device code (its error stays, at its
// line), no template (leaving out a specialisation could silently change which one
// device code gets), no directive inside. An explicit instantiation (`template void
// f<int>(int);`, `extern template ...`) of a template already left out as host code is
// the one declaration that may begin with `template`.
bool plainHostDeclaration(const std::vector<SourceToken>& t, std::size_t first, std::size_t last,
                          bool instantiation = false)
{
    static constexpr std::string_view kept[] = {"template",   "__device__",  "__global__", "__host__", "__constant__",
                                                "__shared__", "__managed__", "namespace",  "operator"};
    if (instantiation) {
        if (isIdent(t[first], "extern"))
            ++first;
        if (first >= last || !isIdent(t[first], "template") || isPunct(t[first + 1], "<"))
            return false;
        ++first;
    }
    for (std::size_t i = first; i <= last; ++i) {
        if (t[i].kind == SourceToken::Kind::Directive)
            return false;
        for (std::string_view word : kept)
            if (isIdent(t[i], word))
                return false;
    }
    return true;
}

// "typedef CUTThread", "alias Handle", "struct Timer", "function open_log", else "declaration".
std::string describe(const std::vector<SourceToken>& t, std::size_t first, std::size_t last)
{
    auto lastIdentBefore = [&](std::size_t end) {
        for (std::size_t i = end; i-- > first;)
            if (t[i].kind == SourceToken::Kind::Identifier)
                return std::string(t[i].text);
        return std::string();
    };
    if (isIdent(t[first], "typedef"))
        return "typedef " + lastIdentBefore(last);
    if (isIdent(t[first], "using") && first + 1 <= last) {
        if (first + 2 <= last && isPunct(t[first + 2], "="))
            return "alias " + std::string(t[first + 1].text);
        std::string named;
        for (std::size_t i = first + 1; i < last; ++i)
            named += t[i].text;
        return "using " + named;
    }
    for (std::size_t i = first; i < last; ++i) {
        for (const char* type : {"struct", "class", "union", "enum"})
            if (isIdent(t[i], type) && t[i + 1].kind == SourceToken::Kind::Identifier)
                return std::string(type) + " " + std::string(t[i + 1].text);
        if (isPunct(t[i], "=") || isPunct(t[i], "{") || isPunct(t[i], "["))
            break;
        if (isPunct(t[i + 1], "(") && t[i].kind == SourceToken::Kind::Identifier)
            return "function " + std::string(t[i].text);
    }
    return "declaration";
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
    std::vector<std::pair<std::size_t, std::size_t>> spans;        // byte ranges, inclusive
    std::vector<std::pair<std::size_t, std::size_t>> declarations; // token ranges
    std::vector<HostCodeRange> ranges;
    for (const Diagnostic& d : diagnostics) {
        if (d.file != sourceName || d.line <= 0)
            continue;
        const auto at = tokenAt(tokens, d.line, d.column > 0 ? d.column : 1);
        if (!at)
            continue;
        const auto v = verdict(d, tokens, *at, removed);
        if (!v)
            continue;
        const bool namesHostType = v->kind == HostKind::NamesHostType, instance = v->kind == HostKind::InstanceOfHost;
        const auto decl = namesHostType ? namespaceScopeDeclaration(tokens, *at)
                                        : declarationAround(tokens, *at, instance ? HostKind::Function : v->kind);
        // A "variable" may be a kernel NVRTC could not read (`__global__ void k(uint32_t* p)`
        // without <stdint.h>): only a plain host declaration goes.
        const bool checked = namesHostType || instance || v->kind == HostKind::Variable;
        if (!decl || (checked && !plainHostDeclaration(tokens, decl->first, decl->second, instance)))
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
        std::string what;
        if (namesHostType)
            what = describe(tokens, decl->first, decl->second) + " (it names " + v->name
                + ", which device code does not have)";
        else if (instance)
            what = "explicit instantiation of " + v->name + " (its template is host code)";
        else {
            const bool body = isPunct(tokens[decl->second], "}");
            what = v->kind == HostKind::Function || body ? "function" : "variable";
            if (const std::string name = nameOf(tokens, *at); !name.empty())
                what += " " + name;
        }
        ranges.push_back({tokens[decl->first].line, tokens[decl->second].line, what});
    }
    for (const auto& [first, last] : declarations)
        DeclarationBlanker::blank(text, tokens, first, last);
    removed.insert(removed.end(), ranges.begin(), ranges.end());
    return !spans.empty();
}

} // namespace kw
