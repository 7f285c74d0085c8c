#include "compile/SignatureParser.hpp"

#include "compile/SourceLexer.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

namespace kw {

namespace {

using Tok = SourceToken;
using Toks = std::vector<Tok>;

bool isPunct(const Tok& t, std::string_view p) { return t.kind == Tok::Kind::Punct && t.text == p; }
bool isIdent(const Tok& t, std::string_view w) { return t.kind == Tok::Kind::Identifier && t.text == w; }

// Words that qualify a type without naming it.
bool isQualifier(std::string_view w)
{
    static const std::set<std::string_view> q
        = {"const",  "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__",
           "struct", "class",    "enum",         "union",      "typename"};
    return q.count(w) > 0;
}

bool isRestrict(std::string_view w) { return w == "__restrict__" || w == "__restrict" || w == "restrict"; }

bool isTypeKeyword(std::string_view w)
{
    static const std::set<std::string_view> k
        = {"void",     "bool",    "char",    "short",    "int",      "long", "float",  "double",  "signed",
           "unsigned", "wchar_t", "char8_t", "char16_t", "char32_t", "auto", "__half", "__int128"};
    return k.count(w) > 0 || isQualifier(w);
}

// Joins tokens with C-like spacing: "const float *", "Vec<float,4>", "std::size_t".
std::string joinTokens(const Toks& toks, std::size_t begin, std::size_t end)
{
    std::string out;
    for (std::size_t i = begin; i < end; ++i) {
        std::string_view t = toks[i].text;
        if (i > begin) {
            std::string_view prev = toks[i - 1].text;
            bool tight = prev == "::" || prev == "<" || prev == "(" || prev == "[" || t == "::" || t == ">" || t == ">>"
                || t == "," || t == ")" || t == "]" || t == "<" || (t == "*" && prev == "*")
                || (t == "(" && prev != ",");
            if (!tight || prev == ",")
                out += ' ';
        }
        out += t;
    }
    return out;
}

// Index of the token that closes the group opened at `open` ("(", "[", "{"), or toks.size().
std::size_t matchClose(const Toks& toks, std::size_t open)
{
    std::string_view o = toks[open].text;
    std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t i = open; i < toks.size(); ++i) {
        if (isPunct(toks[i], o))
            ++depth;
        else if (isPunct(toks[i], c) && --depth == 0)
            return i;
    }
    return toks.size();
}

// Index of the ">" closing the angle group opened at `open`; ">>" closes two levels
// and is reported as that token. Parentheses shield comparisons inside them.
std::size_t matchAngle(const Toks& toks, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < toks.size(); ++i) {
        const Tok& t = toks[i];
        if (isPunct(t, "(") || isPunct(t, "[")) {
            i = matchClose(toks, i);
            continue;
        }
        if (isPunct(t, "<"))
            ++depth;
        else if (isPunct(t, ">"))
            --depth;
        else if (isPunct(t, ">>"))
            depth -= 2;
        else if (isPunct(t, ";") || isPunct(t, "{"))
            return toks.size();
        if (depth <= 0)
            return i;
    }
    return toks.size();
}

// Splits [begin, end) at commas outside (), [], {} and <>.
std::vector<std::pair<std::size_t, std::size_t>> splitTopLevel(const Toks& toks, std::size_t begin, std::size_t end)
{
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    int depth = 0, angle = 0;
    std::size_t start = begin;
    for (std::size_t i = begin; i < end; ++i) {
        const Tok& t = toks[i];
        if (t.kind != Tok::Kind::Punct)
            continue;
        if (t.text == "(" || t.text == "[" || t.text == "{")
            ++depth;
        else if (t.text == ")" || t.text == "]" || t.text == "}")
            --depth;
        else if (t.text == "<")
            ++angle;
        else if (t.text == ">" && angle > 0)
            --angle;
        else if (t.text == ">>" && angle > 0)
            angle = std::max(0, angle - 2);
        else if (t.text == "," && depth == 0 && angle == 0) {
            parts.emplace_back(start, i);
            start = i + 1;
        }
    }
    if (start < end || !parts.empty())
        parts.emplace_back(start, end);
    return parts;
}

// Describes one parameter from its tokens; nullopt for "void" or nothing.
std::optional<KernelParam> analyseParam(const Toks& all, std::size_t begin, std::size_t end)
{
    Toks toks;
    for (std::size_t i = begin; i < end; ++i) {
        if (isPunct(all[i], "="))
            break; // default argument
        toks.push_back(all[i]);
    }
    if (toks.empty() || (toks.size() == 1 && isIdent(toks[0], "void")))
        return std::nullopt;

    KernelParam p;
    // Array parameters decay to pointers: "float a[16]".
    int arrayDims = 0;
    while (!toks.empty() && isPunct(toks.back(), "]")) {
        std::size_t open = toks.size() - 1;
        while (open > 0 && !isPunct(toks[open], "["))
            --open;
        toks.erase(toks.begin() + static_cast<long>(open), toks.end());
        ++arrayDims;
    }
    // The last identifier is the name when what precedes it still names a type.
    if (toks.size() > 1 && toks.back().kind == Tok::Kind::Identifier && !isTypeKeyword(toks.back().text)
        && !isPunct(toks[toks.size() - 2], "::")) {
        bool typeBefore = std::any_of(toks.begin(), toks.end() - 1, [](const Tok& t) {
            return (t.kind == Tok::Kind::Identifier && !isQualifier(t.text)) || isPunct(t, ">") || isPunct(t, ">>");
        });
        if (typeBefore) {
            p.name = std::string(toks.back().text);
            toks.pop_back();
        }
    }

    std::size_t firstStar = toks.size();
    for (std::size_t i = 0; i < toks.size(); ++i) {
        if (isPunct(toks[i], "*") || isPunct(toks[i], "&") || isPunct(toks[i], "&&")) {
            if (firstStar == toks.size())
                firstStar = i;
            if (isPunct(toks[i], "*"))
                ++p.pointerDepth;
        }
        if (toks[i].kind == Tok::Kind::Identifier && isRestrict(toks[i].text))
            p.isRestrict = true;
    }
    p.pointerDepth += arrayDims;
    p.isPointer = p.pointerDepth > 0;

    Toks base;
    for (std::size_t i = 0; i < firstStar; ++i) {
        if (isIdent(toks[i], "const"))
            p.isConst = true;
        if (toks[i].kind == Tok::Kind::Identifier && isQualifier(toks[i].text))
            continue;
        base.push_back(toks[i]);
    }
    if (firstStar == toks.size() || !p.isPointer) {
        // A value parameter: any const counts ("int const n").
        for (const Tok& t : toks)
            if (isIdent(t, "const"))
                p.isConst = true;
    }
    p.baseType = joinTokens(base, 0, base.size());
    if (p.baseType == "unsigned" || p.baseType == "signed")
        p.baseType += " int";
    p.type = joinTokens(toks, 0, toks.size());
    if (arrayDims > 0)
        p.type += std::string(static_cast<std::size_t>(arrayDims), '*').insert(0, " ");
    return p;
}

struct Scope {
    bool isNamespace = false;
    std::string name;
};

class Scanner {
public:
    explicit Scanner(std::string_view source)
    {
        // Code under "#if 0" (or the #else of "#if 1") is not compiled, so its
        // kernels do not exist; other conditions cannot be evaluated here.
        struct Branch {
            bool parentDead, dead;
            int literal; // 0 or 1 for "#if 0" / "#if 1", else -1
        };
        std::vector<Branch> branches;
        auto dead = [&] { return !branches.empty() && branches.back().dead; };
        for (const Tok& t : lexSource(source)) {
            if (t.kind != Tok::Kind::Directive) {
                if (!dead())
                    toks_.push_back(t);
                continue;
            }
            auto words = lexSource(t.text.substr(1));
            std::string_view name = words.empty() ? std::string_view() : words[0].text;
            if (name == "if" || name == "ifdef" || name == "ifndef") {
                int literal = -1;
                if (name == "if" && words.size() == 2 && (words[1].text == "0" || words[1].text == "1"))
                    literal = words[1].text == "1";
                bool parentDead = dead();
                branches.push_back({parentDead, parentDead || literal == 0, literal});
            } else if ((name == "else" || name == "elif") && !branches.empty()) {
                Branch& b = branches.back();
                b.dead = b.parentDead || b.literal == 1;
                b.literal = b.literal == 1 ? 1 : -1;
            } else if (name == "endif" && !branches.empty()) {
                branches.pop_back();
            }
        }
    }

    std::vector<KernelSignature> run()
    {
        std::optional<std::vector<std::string>> pendingTemplate;
        for (std::size_t i = 0; i < toks_.size(); ++i) {
            const Tok& t = toks_[i];
            if (isIdent(t, "template") && i + 1 < toks_.size() && isPunct(toks_[i + 1], "<")) {
                std::size_t close = matchAngle(toks_, i + 1);
                if (close >= toks_.size())
                    break;
                pendingTemplate = templateParams(i + 2, close);
                i = close;
            } else if (isIdent(t, "__global__")) {
                i = kernelAt(i, pendingTemplate);
                pendingTemplate.reset();
            } else if (isPunct(t, "{")) {
                scopes_.push_back(scopeOpenedAt(i));
                pendingTemplate.reset();
            } else if (isPunct(t, "}")) {
                if (!scopes_.empty())
                    scopes_.pop_back();
                pendingTemplate.reset();
            } else if (isPunct(t, ";")) {
                pendingTemplate.reset();
            }
        }
        return std::move(kernels_);
    }

private:
    std::vector<std::string> templateParams(std::size_t begin, std::size_t end) const
    {
        std::vector<std::string> out;
        for (auto [b, e] : splitTopLevel(toks_, begin, end))
            if (b < e)
                out.push_back(joinTokens(toks_, b, e));
        // "template <typename T = Vec<int>>": the ">>" also closed the last parameter's list.
        if (!out.empty() && end < toks_.size() && isPunct(toks_[end], ">>"))
            out.back() += '>';
        return out;
    }

    Scope scopeOpenedAt(std::size_t brace) const
    {
        std::size_t j = brace;
        std::string name;
        while (j > 0 && (toks_[j - 1].kind == Tok::Kind::Identifier || isPunct(toks_[j - 1], "::"))) {
            --j;
            if (isIdent(toks_[j], "namespace"))
                return {true, name};
            name.insert(0, toks_[j].text);
        }
        return {};
    }

    std::string qualify(const std::string& name) const
    {
        std::string q;
        for (const Scope& s : scopes_)
            if (s.isNamespace && !s.name.empty())
                q += s.name + "::";
        return q + name;
    }

    // Parses the kernel whose __global__ is at `g`; returns the index of the last token
    // of its declaration or definition.
    std::size_t kernelAt(std::size_t g, const std::optional<std::vector<std::string>>& tmpl)
    {
        static const std::set<std::string_view> attributeCalls
            = {"__launch_bounds__", "__attribute__", "__declspec", "alignas",
               "__cluster_dims__",  "__maxnreg__",   "__align__"};
        std::size_t j = g + 1;
        std::size_t nameBegin = 0, nameEnd = 0;
        while (j < toks_.size()) {
            const Tok& t = toks_[j];
            if (isPunct(t, ";") || isPunct(t, "{") || isPunct(t, "}"))
                return j - 1;
            if (t.kind == Tok::Kind::Identifier && attributeCalls.count(t.text) && j + 1 < toks_.size()
                && isPunct(toks_[j + 1], "(")) {
                j = matchClose(toks_, j + 1) + 1;
                continue;
            }
            if (isPunct(t, "[") && j + 1 < toks_.size() && isPunct(toks_[j + 1], "[")) {
                j = matchClose(toks_, j) + 1;
                continue;
            }
            if (t.kind == Tok::Kind::Identifier) {
                std::size_t e = j + 1;
                while (e + 1 < toks_.size() && isPunct(toks_[e], "::") && toks_[e + 1].kind == Tok::Kind::Identifier)
                    e += 2;
                if (e < toks_.size() && isPunct(toks_[e], "(")) {
                    nameBegin = j;
                    nameEnd = e;
                    j = e;
                    break;
                }
                if (e < toks_.size() && isPunct(toks_[e], "<")) {
                    std::size_t close = matchAngle(toks_, e);
                    if (close + 1 < toks_.size() && isPunct(toks_[close + 1], "(")) {
                        // An explicit specialisation or instantiation: not a new kernel.
                        return skipDeclaration(matchClose(toks_, close + 1));
                    }
                    j = close + 1;
                    continue;
                }
                j = e;
                continue;
            }
            ++j;
        }
        if (nameEnd == 0 || j >= toks_.size())
            return toks_.size();

        std::size_t close = matchClose(toks_, j);
        KernelSignature k;
        k.name = qualify(joinTokens(toks_, nameBegin, nameEnd));
        k.line = toks_[nameEnd - 1].line;
        if (tmpl)
            k.templateParams = *tmpl;
        for (auto [b, e] : splitTopLevel(toks_, j + 1, close))
            if (auto p = analyseParam(toks_, b, e))
                k.params.push_back(std::move(*p));
        std::size_t last = skipDeclaration(close);
        bool isDefinition = last < toks_.size() && isPunct(toks_[last], "}");
        add(std::move(k), isDefinition);
        return last;
    }

    // From the ")" closing a parameter list to the ";" or the body's "}".
    std::size_t skipDeclaration(std::size_t from) const
    {
        for (std::size_t j = from + 1; j < toks_.size(); ++j) {
            if (isPunct(toks_[j], ";"))
                return j;
            if (isPunct(toks_[j], "{"))
                return matchClose(toks_, j);
            if (isPunct(toks_[j], "("))
                j = matchClose(toks_, j);
        }
        return toks_.size();
    }

    void add(KernelSignature k, bool isDefinition)
    {
        auto sameKernel = [&](const KernelSignature& other) {
            if (other.name != k.name || other.params.size() != k.params.size())
                return false;
            for (std::size_t i = 0; i < k.params.size(); ++i)
                if (other.params[i].type != k.params[i].type)
                    return false;
            return true;
        };
        for (std::size_t i = 0; i < kernels_.size(); ++i) {
            if (sameKernel(kernels_[i])) {
                if (isDefinition && !definitions_[i]) {
                    kernels_[i] = std::move(k);
                    definitions_[i] = true;
                }
                return;
            }
        }
        kernels_.push_back(std::move(k));
        definitions_.push_back(isDefinition);
    }

    Toks toks_;
    std::vector<Scope> scopes_;
    std::vector<KernelSignature> kernels_;
    std::vector<bool> definitions_;
};

// "typename T = float" -> {"T", "float"}
std::pair<std::string, std::string> templateParamNameAndDefault(const std::string& param)
{
    Toks toks = lexSource(param);
    std::size_t eq = toks.size();
    for (std::size_t i = 0; i < toks.size(); ++i)
        if (isPunct(toks[i], "=")) {
            eq = i;
            break;
        }
    std::string name;
    for (std::size_t i = 0; i < eq; ++i)
        if (toks[i].kind == Tok::Kind::Identifier)
            name = std::string(toks[i].text);
    std::string def = eq < toks.size() ? joinTokens(toks, eq + 1, toks.size()) : std::string();
    return {name, def};
}

} // namespace

std::vector<KernelSignature> parseKernelSignatures(std::string_view source) { return Scanner(source).run(); }

KernelParam parseKernelParam(std::string_view declaration)
{
    Toks toks = lexSource(declaration);
    return analyseParam(toks, 0, toks.size()).value_or(KernelParam{});
}

KernelSignature instantiate(const KernelSignature& kernel, std::string_view instantiation)
{
    Toks toks = lexSource(instantiation);
    std::size_t open = 0;
    while (open < toks.size() && !isPunct(toks[open], "<"))
        ++open;
    std::string name = joinTokens(toks, 0, open);
    auto unqualified = [](const std::string& n) {
        std::size_t colon = n.rfind("::");
        return colon == std::string::npos ? n : n.substr(colon + 2);
    };
    if (unqualified(name) != unqualified(kernel.name))
        throw Error(ErrorCategory::Usage,
                    "instantiation '" + std::string(instantiation) + "' does not name kernel '" + kernel.name + "'");

    std::vector<std::string> args;
    if (open < toks.size()) {
        std::size_t close = matchAngle(toks, open);
        if (close >= toks.size() || close + 1 != toks.size())
            throw Error(ErrorCategory::Usage,
                        "instantiation '" + std::string(instantiation) + "': unbalanced template arguments");
        for (auto [b, e] : splitTopLevel(toks, open + 1, close))
            args.push_back(joinTokens(toks, b, e));
        if (isPunct(toks[close], ">>") && !args.empty())
            args.back() += '>'; // "scale<Vec<int>>"
    }
    if (args.size() > kernel.templateParams.size())
        throw Error(ErrorCategory::Usage,
                    "instantiation '" + std::string(instantiation) + "' has " + std::to_string(args.size())
                        + " template arguments, kernel '" + kernel.name + "' takes "
                        + std::to_string(kernel.templateParams.size()));

    std::vector<std::pair<std::string, std::string>> substitutions;
    for (std::size_t i = 0; i < kernel.templateParams.size(); ++i) {
        auto [paramName, def] = templateParamNameAndDefault(kernel.templateParams[i]);
        std::string value = i < args.size() ? args[i] : def;
        if (value.empty())
            throw Error(ErrorCategory::Usage,
                        "instantiation '" + std::string(instantiation) + "' gives no argument for template parameter '"
                            + kernel.templateParams[i] + "'");
        substitutions.emplace_back(paramName, value);
    }

    KernelSignature out;
    out.name = std::string(instantiation);
    out.line = kernel.line;
    for (const KernelParam& p : kernel.params) {
        std::string declaration;
        for (const Tok& t : lexSource(p.type)) {
            auto it = std::find_if(substitutions.begin(), substitutions.end(),
                                   [&](const auto& s) { return t.kind == Tok::Kind::Identifier && s.first == t.text; });
            declaration += it != substitutions.end() ? it->second : std::string(t.text);
            declaration += ' ';
        }
        KernelParam q = parseKernelParam(declaration);
        q.name = p.name;
        out.params.push_back(std::move(q));
    }
    return out;
}

} // namespace kw
