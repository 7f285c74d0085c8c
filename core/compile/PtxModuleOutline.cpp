#include "compile/PtxModuleOutline.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace kw::ptx {

namespace {

// One pass over the tokens; every step moves on by at least one token, so malformed
// text ends the walk instead of stalling it.
class OutlineReader {
public:
    explicit OutlineReader(std::string_view ptx)
        : toks_(tokenize(ptx))
    {
    }

    PtxModuleOutline run()
    {
        while (!atEnd())
            topLevel();
        return std::move(out_);
    }

private:
    std::vector<Token> toks_;
    std::size_t i_ = 0;
    PtxModuleOutline out_;

    const Token& tok(std::size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
    bool atEnd() const { return tok().kind == Token::End; }
    bool punct(const char* text, std::size_t k = 0) const { return tok(k).kind == Token::Punct && tok(k).text == text; }
    void advance(std::size_t n = 1) { i_ = std::min(i_ + n, toks_.size() - 1); }
    bool endReported_ = false;

    // Text that ends early is said once, not once for every construct it leaves open.
    void problem(const Token& at, std::string what)
    {
        if (at.kind == Token::End && std::exchange(endReported_, true))
            return;
        out_.problems.push_back({at.line, std::move(what)});
    }

    // The declaration at the cursor, or nothing when its shape is wrong (then reported);
    // the cursor is left where reading stopped, past at least one token.
    std::optional<PtxDeclaration> declaration()
    {
        PtxDeclaration d = PtxDeclaration::read(toks_, i_, toks_.size());
        const std::size_t from = i_;
        i_ = std::max(d.end, from + 1);
        advance(0);
        if (d.problem) {
            problem(toks_[d.problem->token], d.problem->what);
            return std::nullopt;
        }
        return d;
    }

    bool atFunction() const { return tok().text == ".entry" || tok().text == ".func"; }

    // Past the next ';' outside braces (an initialiser's, a vector operand's), stopping
    // before a function, which a statement never holds.
    void skipStatement()
    {
        int depth = 0;
        for (; !atEnd() && !atFunction(); advance()) {
            if (depth == 0 && punct(";")) {
                advance();
                return;
            }
            depth += punct("{") ? 1 : punct("}") && depth > 0 ? -1 : 0;
        }
    }

    void topLevel()
    {
        const std::string& w = tok().text;
        if (w == ".version" || w == ".address_size") {
            advance(2);
        } else if (w == ".target" || w == ".file") {
            advance(w == ".file" ? 3 : 2);
            while (punct(","))
                advance(2);
        } else if (w == ".section") {
            advance(2);
            skipBlock();
        } else if (isFunction()) {
            function();
        } else if (isDirective(tok())) {
            if (auto d = declaration())
                out_.variables.push_back(std::move(*d));
            skipStatement();
        } else {
            problem(tok(), "unexpected '" + tok().text + "' at module scope");
            skipStatement();
        }
    }

    // At a function, after any linkage directives (which are then passed over).
    bool isFunction()
    {
        std::size_t k = 0;
        while (tok(k).text == ".visible" || tok(k).text == ".extern" || tok(k).text == ".weak")
            ++k;
        if (tok(k).text != ".entry" && tok(k).text != ".func")
            return false;
        advance(k);
        return true;
    }

    void skipBlock()
    {
        if (!punct("{"))
            return;
        int depth = 0;
        do {
            depth += punct("{") ? 1 : punct("}") ? -1 : 0;
            advance();
        } while (depth > 0 && !atEnd());
    }

    void function()
    {
        PtxFunctionOutline f;
        f.isEntry = tok().text == ".entry";
        f.line = tok().line;
        advance();
        if (punct("("))
            f.returns = paramList();
        if (tok().kind == Token::Ident && !isDirective(tok())) {
            f.name = tok().text;
            advance();
        } else {
            problem(tok(), "expected the function's name");
        }
        if (punct("("))
            f.params = paramList();
        while (!atEnd() && !punct("{") && !punct(";"))
            advance(); // performance directives such as .maxntid
        if (punct("{")) {
            f.hasBody = true;
            body(f);
        } else if (atEnd()) {
            problem(tok(), "unterminated function header");
        } else {
            advance(); // a declaration only
        }
        out_.functions.push_back(std::move(f));
    }

    std::vector<PtxDeclaration> paramList()
    {
        std::vector<PtxDeclaration> params;
        advance(); // (
        while (!punct(")")) {
            if (atEnd() || punct("{") || punct(";")) {
                problem(tok(), "unterminated parameter list");
                return params;
            }
            if (auto d = declaration()) {
                params.push_back(std::move(*d));
                if (punct(",")) {
                    advance();
                    continue;
                }
                if (punct(")"))
                    continue;
                problem(tok(), "expected ',' or ')' after a parameter");
            }
            // On to the next parameter.
            while (!atEnd() && !punct(",") && !punct(")") && !punct("{"))
                advance();
            if (punct(","))
                advance();
        }
        advance(); // )
        return params;
    }

    // Statements end at ';'; a '{' or '}' that starts one opens or closes a block (inside
    // one they are a vector operand's); labels and .loc/.file lines take no ';'.
    void body(PtxFunctionOutline& f)
    {
        advance(); // {
        int depth = 1;
        while (depth > 0) {
            if (atEnd() || atFunction()) {
                problem(tok(), "unterminated function body");
                return;
            }
            if (punct("{") || punct("}")) {
                depth += punct("{") ? 1 : -1;
                advance();
            } else if (punct(";")) {
                advance();
            } else if (tok().text == ".loc" || tok().text == ".file") {
                const int line = tok().line;
                while (!atEnd() && tok().line == line)
                    advance();
            } else if (tok().kind == Token::Ident && punct(":", 1)) {
                advance(2);
            } else if (PtxDeclaration::startsDeclaration(tok())) {
                if (auto d = declaration())
                    f.body.push_back({std::move(*d), depth});
                skipStatement();
            } else {
                skipStatement();
            }
        }
    }
};

} // namespace

PtxModuleOutline PtxModuleOutline::read(std::string_view ptx) { return OutlineReader(ptx).run(); }

} // namespace kw::ptx
