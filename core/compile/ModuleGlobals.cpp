#include "compile/SignatureParser.hpp"
#include "compile/SourceLexer.hpp"

namespace kw {

// __constant__ / __device__ variables at namespace scope: the qualifier, then a declaration
// that reaches ';' or '=' without a parameter list.
std::vector<ModuleGlobal> parseModuleGlobals(std::string_view source)
{
    const std::vector<SourceToken> toks = lexSource(source);
    std::vector<ModuleGlobal> out;
    int depth = 0;
    std::vector<bool> transparent; // namespace / extern "C" braces keep namespace scope
    bool lastWasNamespace = false;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        const SourceToken& t = toks[i];
        if (t.kind == SourceToken::Kind::Punct && t.text == "{") {
            transparent.push_back(lastWasNamespace);
            depth += lastWasNamespace ? 0 : 1;
            lastWasNamespace = false;
            continue;
        }
        if (t.kind == SourceToken::Kind::Punct && t.text == "}") {
            if (!transparent.empty()) {
                depth -= transparent.back() ? 0 : 1;
                transparent.pop_back();
            }
            continue;
        }
        if (t.kind == SourceToken::Kind::Identifier && (t.text == "namespace" || t.text == "extern"))
            lastWasNamespace = true;
        else if (t.kind == SourceToken::Kind::Punct && t.text == ";")
            lastWasNamespace = false;
        if (depth != 0 || t.kind != SourceToken::Kind::Identifier
            || (t.text != "__constant__" && t.text != "__device__"))
            continue;
        ModuleGlobal g;
        g.space = std::string(t.text);
        g.line = t.line;
        std::size_t j = i + 1;
        bool function = false;
        std::string lastIdent;
        for (; j < toks.size(); ++j) {
            const SourceToken& u = toks[j];
            if (u.kind == SourceToken::Kind::Punct && (u.text == ";" || u.text == "=" || u.text == "{"))
                break;
            if (u.kind == SourceToken::Kind::Punct && u.text == "(") {
                function = true;
                break;
            }
            if (u.kind == SourceToken::Kind::Punct && u.text == "[") {
                if (g.name.empty())
                    g.name = lastIdent;
                std::string dims;
                while (j < toks.size() && !(toks[j].kind == SourceToken::Kind::Punct && toks[j].text == "]"))
                    dims += toks[j++].text;
                g.dims += dims + "]";
                continue;
            }
            if (u.kind == SourceToken::Kind::Identifier) {
                if (!lastIdent.empty() && g.name.empty())
                    g.type += (g.type.empty() ? "" : " ") + lastIdent;
                lastIdent = std::string(u.text);
            } else if (g.name.empty() && u.kind == SourceToken::Kind::Punct && u.text == "*") {
                g.type += "*";
            }
        }
        if (function || j == toks.size() || toks[j].text == "{")
            continue;
        if (g.name.empty())
            g.name = lastIdent;
        if (!g.name.empty())
            out.push_back(std::move(g));
        i = j;
    }
    return out;
}

} // namespace kw
