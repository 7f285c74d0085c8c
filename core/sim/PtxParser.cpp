#include "sim/PtxParser.hpp"

#include "sim/InstrDecoder.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdlib>
#include <map>
#include <unordered_map>

namespace kw::sim {

const Function* Module::findFunction(const std::string& name) const {
    for (const auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

std::string Module::fileName(std::uint16_t index) const {
    return index < files.size() ? files[index] : std::string();
}

namespace {

std::int64_t wrappingAdd(std::int64_t a, std::uint64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + b);
}

struct Token {
    enum Kind { Ident, Number, String, Punct, End } kind = End;
    std::string text;
    int line = 0; // line in the PTX text, for parse errors
};

std::vector<Token> tokenize(std::string_view s) {
    std::vector<Token> out;
    int line = 1;
    std::size_t i = 0, n = s.size();
    auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; };
    while (i < n) {
        char c = s[i];
        if (c == '\n') { ++line; ++i; continue; }
        if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) { if (s[i] == '\n') ++line; ++i; }
            i += 2;
            continue;
        }
        Token t;
        t.line = line;
        if (c == '"') {
            std::size_t j = i + 1;
            while (j < n && s[j] != '"') { if (s[j] == '\\') ++j; ++j; }
            t.kind = Token::String;
            t.text = std::string(s.substr(i + 1, j - i - 1));
            i = j + 1;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < n && identChar(s[j])) ++j;
            t.kind = Token::Number;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else if (c == '.') {
            // Directives and their modifiers may be written together (".reg.b32"): split them.
            std::size_t j = i + 1;
            while (j < n && identChar(s[j]) && s[j] != '.') ++j;
            t.kind = Token::Ident;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%') {
            std::size_t j = i + 1;
            while (j < n && identChar(s[j])) ++j;
            t.kind = Token::Ident;
            t.text = std::string(s.substr(i, j - i));
            i = j;
        } else {
            t.kind = Token::Punct;
            t.text = std::string(1, c);
            ++i;
        }
        out.push_back(std::move(t));
    }
    Token end;
    end.line = line;
    out.push_back(end);
    return out;
}

[[noreturn]] void fail(const Token& t, const std::string& what) {
    throw Error(ErrorCategory::Simulator,
                "PTX parse error at PTX line " + std::to_string(t.line) + " near '" + t.text + "': " + what);
}

// A statement's tokens. Malformed PTX (inline asm is user text) may end a statement
// anywhere: reading past its end is a parse error naming the line, never a crash.
struct Statement : std::vector<Token> {
    using std::vector<Token>::vector;
    const Token& operator[](std::size_t i) const {
        if (i >= size()) fail(empty() ? Token{} : back(), "incomplete statement");
        return std::vector<Token>::operator[](i);
    }
};

// What the simulator accepts of one module: far above what compilers emit, low enough
// that a hostile declaration fails at once instead of exhausting memory.
constexpr std::uint64_t kMaxRegisters = std::uint64_t(1) << 18;     // virtual registers per kernel
constexpr std::uint64_t kMaxVariableBytes = std::uint64_t(1) << 30; // one .global/.const/.shared variable
constexpr std::uint64_t kMaxParamBytes = 32764;                      // the kernel parameter space (CUDA 12.1+)
constexpr std::uint64_t kMaxAlign = 4096;
constexpr std::size_t kMaxFiles = 65535; // .file indices (stored in 16 bits)

// a * b, failing at `t` instead of wrapping around.
std::uint64_t checkedProduct(std::uint64_t a, std::uint64_t b, const Token& t, const char* what) {
    std::uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) fail(t, std::string(what) + " overflows 64 bits");
    return r;
}

std::uint64_t parseUnsigned(const std::string& s) {
    return std::strtoull(s.c_str(), nullptr, (s.size() > 2 && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
}

std::uint64_t alignUp(std::uint64_t v, std::uint32_t a) {
    return (v + a - 1) / a * a;
}

// A function body as statements (token ranges), decoded after the module layout is known.
struct RawFunction {
    Function fn;
    std::vector<ParamDecl> rets; // .func return parameters
    std::vector<Statement> body;
};

struct SourceLoc {
    std::uint16_t file = 0;
    std::uint32_t line = 0;
};

class Parser {
public:
    explicit Parser(std::string_view text) : toks_(tokenize(text)) {}

    Module run() {
        while (peek().kind != Token::End) topLevel();
        layout();
        for (auto& raw : raws_) decodeFunction(raw);
        return std::move(mod_);
    }

private:
    std::vector<Token> toks_;
    std::size_t pos_ = 0;
    Module mod_;
    std::vector<RawFunction> raws_;
    std::unordered_map<std::string, std::size_t> globalIndex_;
    std::uint32_t staticShared_ = 0;

    const Token& peek(std::size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
    const Token& next() {
        const Token& t = peek();
        if (pos_ < toks_.size() - 1) ++pos_;
        return t;
    }
    bool accept(const char* text) {
        if (peek().text == text && peek().kind != Token::String) { next(); return true; }
        return false;
    }
    void expect(const char* text) {
        if (!accept(text)) fail(peek(), std::string("expected '") + text + "'");
    }
    static std::uint32_t alignment(const Token& t) {
        const std::uint64_t a = parseUnsigned(t.text);
        if (a > kMaxAlign) fail(t, "alignment larger than " + std::to_string(kMaxAlign));
        return static_cast<std::uint32_t>(a);
    }
    void skipBraces() {
        expect("{");
        int depth = 1;
        while (depth > 0) {
            const Token& t = next();
            if (t.kind == Token::End) fail(t, "unterminated block");
            if (t.kind == Token::Punct && t.text == "{") ++depth;
            if (t.kind == Token::Punct && t.text == "}") --depth;
        }
    }

    void topLevel() {
        const Token& t = peek();
        if (t.text == ".version" || t.text == ".address_size") { next(); next(); return; }
        if (t.text == ".target") {
            next(); next();
            while (accept(",")) next();
            return;
        }
        if (t.text == ".file") {
            next();
            const Token& at = next();
            const auto index = parseUnsigned(at.text);
            if (index > kMaxFiles) fail(at, ".file index too large");
            std::string path = next().text;
            while (accept(",")) next();
            if (mod_.files.size() <= index) mod_.files.resize(index + 1);
            mod_.files[index] = path;
            return;
        }
        if (t.text == ".section") {
            next(); next();
            skipBraces();
            return;
        }
        bool isExtern = false;
        while (peek().text == ".visible" || peek().text == ".extern" || peek().text == ".weak" ||
               peek().text == ".common") {
            if (peek().text == ".extern") isExtern = true;
            next();
        }
        const std::string kind = peek().text;
        if (kind == ".entry" || kind == ".func") { function(); return; }
        if (kind == ".global" || kind == ".const" || kind == ".shared") { variable(isExtern, mod_.globals); return; }
        fail(t, "unexpected top-level directive");
    }

    // .global/.const/.shared [.align N] [.vN] .type name[dims] [= init];
    void variable(bool isExtern, std::vector<GlobalVar>& into) {
        GlobalVar v;
        std::string sp = next().text;
        v.space = sp == ".shared" ? Space::Shared : sp == ".const" ? Space::Const : Space::Global;
        v.isExtern = isExtern;
        PtxType type = PtxType::B8;
        int vec = 1;
        for (;;) {
            const std::string& d = peek().text;
            if (d == ".align") { next(); v.align = alignment(next()); }
            else if (d == ".v2" || d == ".v4") { vec = d == ".v2" ? 2 : 4; next(); }
            else if (!d.empty() && d[0] == '.' && parsePtxType(d.substr(1)) != PtxType::None) { type = parsePtxType(d.substr(1)); next(); }
            else break;
        }
        const Token& nameTok = next();
        v.name = nameTok.text;
        std::uint64_t count = 1;
        bool unsized = false;
        while (accept("[")) {
            if (accept("]")) { unsized = true; continue; }
            count = checkedProduct(count, parseUnsigned(next().text), nameTok, "the variable's size");
            expect("]");
        }
        const int elem = sizeOf(type) * vec;
        v.size = unsized ? 0 : checkedProduct(count, std::uint64_t(elem), nameTok, "the variable's size");
        if (v.size > kMaxVariableBytes)
            fail(nameTok, "variable of " + std::to_string(v.size) + " bytes; the simulator takes at most " +
                              std::to_string(kMaxVariableBytes) + " bytes per variable");
        if (v.align < static_cast<std::uint32_t>(sizeOf(type))) v.align = std::max<std::uint32_t>(v.align, sizeOf(type));
        v.init.assign(v.size, 0);
        if (accept("=")) {
            std::vector<std::string> values;
            auto readValue = [&] {
                bool negative = accept("-");
                const Token& tk = next();
                if (tk.kind != Token::Number) fail(tk, "only numeric initialisers are supported");
                values.push_back((negative ? "-" : "") + tk.text);
            };
            if (accept("{")) {
                int depth = 1;
                while (depth > 0) {
                    if (accept("{")) { ++depth; continue; }
                    if (accept("}")) { --depth; continue; }
                    if (accept(",")) continue;
                    readValue();
                }
            } else {
                readValue();
            }
            for (std::size_t i = 0; i < values.size() && (i + 1) * sizeOf(type) <= v.init.size(); ++i) {
                std::uint64_t bits = immediateBits(values[i], type);
                std::memcpy(&v.init[i * sizeOf(type)], &bits, sizeOf(type));
            }
        }
        expect(";");
        globalIndex_[v.name] = into.size();
        into.push_back(std::move(v));
    }

    // Parameter list "( .param .u64 name, ... )".
    std::vector<ParamDecl> paramList() {
        std::vector<ParamDecl> params;
        expect("(");
        while (!accept(")")) {
            if (peek().kind == Token::End) fail(peek(), "unterminated parameter list");
            ParamDecl p;
            PtxType type = PtxType::B8;
            std::uint32_t align = 0;
            while (peek().kind == Token::Ident && peek().text[0] == '.') {
                std::string d = next().text;
                if (d == ".align") align = alignment(next());
                else if (parsePtxType(d.substr(1)) != PtxType::None) type = parsePtxType(d.substr(1));
            }
            const Token& nameTok = next();
            p.name = nameTok.text;
            std::uint64_t count = 1;
            while (accept("[")) { count = checkedProduct(count, parseUnsigned(next().text), nameTok, "the parameter's size"); expect("]"); }
            const std::uint64_t size = checkedProduct(count, std::uint64_t(sizeOf(type)), nameTok, "the parameter's size");
            if (size > kMaxParamBytes) fail(nameTok, "parameter larger than the parameter space");
            p.size = static_cast<std::uint32_t>(size);
            p.align = align ? align : static_cast<std::uint32_t>(sizeOf(type));
            params.push_back(p);
            accept(",");
        }
        return params;
    }

    void function() {
        RawFunction raw;
        raw.fn.isEntry = next().text == ".entry";
        if (peek().text == "(") raw.rets = paramList(); // return value
        raw.fn.name = next().text;
        if (peek().text == "(") raw.fn.params = paramList();
        std::uint32_t offset = 0;
        for (auto& p : raw.fn.params) {
            offset = static_cast<std::uint32_t>(alignUp(offset, std::max<std::uint32_t>(p.align, 1)));
            p.offset = offset;
            offset += p.size;
            if (offset > kMaxParamBytes) fail(peek(), "parameters larger than the parameter space");
        }
        raw.fn.paramBytes = offset;
        while (peek().text != "{" && peek().text != ";") {
            if (peek().kind == Token::End) fail(peek(), "unterminated function header");
            next(); // performance directives such as .maxntid, .noreturn
        }
        if (accept(";")) return; // declaration only
        expect("{");
        int depth = 1;
        Statement stmt;
        auto flush = [&] { if (!stmt.empty()) { raw.body.push_back(std::move(stmt)); stmt.clear(); } };
        while (depth > 0) {
            const Token& t = next();
            if (t.kind == Token::End) fail(t, "unterminated function body");
            // Nested blocks scope their .reg/.param names: keep the braces as statements.
            if (t.kind == Token::Punct && t.text == "{" && stmt.empty()) { ++depth; raw.body.push_back({t}); continue; }
            if (t.kind == Token::Punct && t.text == "}" && stmt.empty()) {
                if (--depth > 0) raw.body.push_back({t});
                continue;
            }
            if (t.kind == Token::Ident && (t.text == ".loc" || t.text == ".file")) {
                // No ';' terminates these: they take a fixed shape.
                flush();
                stmt.push_back(t);
                stmt.push_back(next()); stmt.push_back(next()); stmt.push_back(next());
                while (peek().text == ",") {
                    stmt.push_back(next());
                    stmt.push_back(next());
                    if (stmt.back().text == "inlined_at") { stmt.push_back(next()); stmt.push_back(next()); stmt.push_back(next()); }
                    else if (stmt.back().text == "function_name") stmt.push_back(next());
                }
                flush();
                continue;
            }
            if (t.kind == Token::Punct && t.text == ":" && stmt.size() == 1) { stmt.push_back(t); flush(); continue; }
            if (t.kind == Token::Punct && t.text == ";") { flush(); continue; }
            stmt.push_back(t);
        }
        flush();
        // Function-scope .shared variables join the module's static shared layout.
        for (auto it = raw.body.begin(); it != raw.body.end();) {
            if ((*it)[0].text == ".shared") {
                std::vector<Token> saved = std::move(toks_);
                std::size_t savedPos = pos_;
                toks_ = *it;
                toks_.push_back(Token{Token::Punct, ";", 0});
                toks_.push_back(Token{});
                pos_ = 0;
                variable(false, mod_.globals);
                toks_ = std::move(saved);
                pos_ = savedPos;
                it = raw.body.erase(it);
            } else {
                ++it;
            }
        }
        raws_.push_back(std::move(raw));
    }

    // Global/const variables get fake device addresses; shared ones offsets in one
    // block-wide layout with the extern (dynamic) part last.
    void layout() {
        std::uint64_t addr = kGlobalBase;
        std::uint64_t shared = 0;
        std::uint32_t dynAlign = 16;
        for (auto& v : mod_.globals) {
            if (v.space == Space::Shared) {
                if (v.isExtern) { dynAlign = std::max(dynAlign, v.align); continue; }
                shared = alignUp(shared, std::max<std::uint32_t>(v.align, 1));
                v.address = shared;
                shared += v.size;
                if (shared > kMaxVariableBytes)
                    throw Error(ErrorCategory::Limit, "the module's static shared memory exceeds " +
                                                          std::to_string(kMaxVariableBytes) + " bytes");
            } else {
                addr = (addr + 255) / 256 * 256;
                v.address = addr;
                addr += std::max<std::uint64_t>(v.size, 1) + 256;
            }
        }
        mod_.staticShared = static_cast<std::uint32_t>(shared);
        mod_.dynamicSharedOffset = static_cast<std::uint32_t>(alignUp(shared, dynAlign));
        for (auto& v : mod_.globals)
            if (v.space == Space::Shared && v.isExtern) v.address = mod_.dynamicSharedOffset;
    }

    // Names visible while decoding one function body; an inlined callee gets its own.
    struct Scope {
        std::unordered_map<std::string, std::uint32_t> regs = specialRegisters();
        std::unordered_map<std::string, std::uint64_t> locals; // .local, call .param: frame offsets
        std::unordered_map<std::string, std::uint32_t> labels;
        std::vector<std::pair<std::size_t, std::string>> fixups; // branches to patch
        std::vector<std::size_t> rets;                           // inlined: ret -> end of body
        const std::vector<ParamDecl>* kernelParams = nullptr;
        std::vector<std::string> callStack;
    };

    std::map<std::uint64_t, std::uint32_t> consts_;
    Function* fn_ = nullptr;
    Scope* scope_ = nullptr;
    SourceLoc loc_;

    // The GPU gives a thread at most 512 KiB of local memory (the CUDA programming
    // guide's limit for every architecture since sm_20); the simulator holds to it.
    static constexpr std::uint64_t kMaxLocalPerThread = std::uint64_t(512) << 10;

    std::uint32_t allocLocal(std::uint64_t size, std::uint32_t align) {
        const std::uint64_t at = alignUp(fn_->localBytes, std::max<std::uint32_t>(align, 1));
        if (size > kMaxLocalPerThread || at + size > kMaxLocalPerThread)
            throw Error(ErrorCategory::Limit,
                        "kernel " + fn_->name + " needs more than 512 KiB of local memory per thread (" +
                            std::to_string(at + std::min(size, kMaxLocalPerThread * 1024)) +
                            " bytes of stack and local arrays); a GPU allows at most 512 KiB per thread");
        fn_->localBytes = static_cast<std::uint32_t>(at + size);
        return static_cast<std::uint32_t>(at);
    }

    void decodeFunction(RawFunction& raw) {
        if (!raw.fn.isEntry) return; // device functions are inlined where they are called
        Function fn = raw.fn;
        fn_ = &fn;
        cur_ = &fn;
        consts_.clear();
        Scope scope;
        scope.kernelParams = &fn.params;
        scope.callStack.push_back(fn.name);
        emitBody(raw, scope);
        fn.localBytes = static_cast<std::uint32_t>(alignUp(fn.localBytes, 8));
        mod_.functions.push_back(std::move(fn));
    }

    void pushInstr(Instr in, const Statement& st, const std::string& why) {
        fn_->code.push_back(in);
        fn_->text.push_back(statementText(st));
        fn_->unsupported.push_back(why);
    }

    void markUnsupported(std::size_t index, const std::string& why) {
        fn_->code[index].ctrl = Ctrl::Unsupported;
        fn_->code[index].fn = nullptr;
        fn_->unsupported[index] = why;
    }

    void emitBody(const RawFunction& raw, Scope& scope) {
        Scope* outer = scope_;
        scope_ = &scope;
        DecodeEnv env;
        env.constReg = [this](std::uint64_t bits) {
            auto it = consts_.find(bits);
            if (it != consts_.end()) return it->second;
            std::uint32_t r = fn_->numRegs++;
            consts_[bits] = r;
            fn_->constRegs.emplace_back(r, bits);
            return r;
        };
        env.label = [this](const std::string& name) {
            scope_->fixups.emplace_back(fn_->code.size(), name);
            return 0;
        };
        std::vector<std::pair<std::unordered_map<std::string, std::uint32_t>,
                              std::unordered_map<std::string, std::uint64_t>>> saved;
        for (const auto& st : raw.body) {
            const std::string& head = st[0].text;
            if (st.size() == 1 && st[0].kind == Token::Punct && head == "{") { saved.emplace_back(scope.regs, scope.locals); continue; }
            if (st.size() == 1 && st[0].kind == Token::Punct && head == "}") {
                if (!saved.empty()) {
                    scope.regs = std::move(saved.back().first);
                    scope.locals = std::move(saved.back().second);
                    saved.pop_back();
                }
                continue;
            }
            if (st.size() == 2 && st[1].text == ":") { scope.labels[head] = std::uint32_t(fn_->code.size()); continue; }
            if (head == ".loc") { loc_ = parseLoc(st); continue; }
            if (head == ".reg") { declareRegs(st, *fn_, scope.regs); continue; }
            if (head == ".param" || head == ".local") {
                std::uint32_t align = 1;
                std::uint64_t size = 0;
                declaredVar(st, align, size);
                scope.locals[st.back().text == "]" ? nameBeforeDims(st) : st.back().text] = allocLocal(size, align);
                continue;
            }
            if (head[0] == '.') continue; // .pragma and other hints
            std::size_t op = head == "@" ? (st[1].text == "!" ? 3 : 2) : 0;
            if (op < st.size() && st[op].text.rfind("call", 0) == 0) { emitCall(st, op, scope); continue; }
            lastWhy_.clear();
            Instr in = decodeStatement(st, scope.regs, scope.locals, env, loc_);
            if (!scope.kernelParams && in.ctrl == Ctrl::Exit) { // ret of an inlined body
                in.ctrl = Ctrl::Bra;
                scope.rets.push_back(fn_->code.size());
            }
            pushInstr(in, st, lastWhy_);
        }
        for (const auto& [index, name] : scope.fixups) {
            auto it = scope.labels.find(name);
            if (it == scope.labels.end()) markUnsupported(index, "branch to unknown label " + name);
            else fn_->code[index].target = it->second;
        }
        scope_ = outer;
    }

    // call[.uni] [(ret),] name[, (args)]: printf and assert are built in; device
    // functions with a body are inlined, their parameters living in the local frame.
    void emitCall(const Statement& st, std::size_t op, Scope& scope) {
        Instr in;
        in.line = loc_.line;
        in.file = loc_.file;
        if (st[0].text == "@") {
            in.guardNeg = st[1].text == "!";
            auto it = scope.regs.find(st[op - 1].text);
            if (it == scope.regs.end()) fail(st[op - 1], "unknown guard predicate");
            in.guard = std::int32_t(it->second);
        }
        auto group = [&](std::size_t& i) {
            std::vector<std::string> names;
            if (i < st.size() && st[i].text == "(") {
                for (++i; i < st.size() && st[i].text != ")"; ++i)
                    if (st[i].text != ",") names.push_back(st[i].text);
                ++i;
            }
            if (i < st.size() && st[i].text == ",") ++i;
            return names;
        };
        std::size_t i = op + 1;
        std::vector<std::string> rets = group(i);
        const std::string name = i < st.size() ? st[i++].text : std::string();
        if (i < st.size() && st[i].text == ",") ++i;
        std::vector<std::string> args = group(i);
        auto offsetOf = [&](const std::string& n, std::string& why) -> std::uint32_t {
            auto it = scope.locals.find(n);
            if (it == scope.locals.end()) { why = "unknown call parameter " + n; return 0; }
            return std::uint32_t(it->second);
        };
        std::string why;
        if (name == "vprintf" || name == "__assertfail") {
            const std::size_t need = name == "vprintf" ? 2 : 4;
            if (args.size() < need) why = name + " with too few arguments";
            for (std::size_t k = 0; k < need && why.empty(); ++k) in.a[k] = offsetOf(args[k], why);
            in.d[0] = rets.empty() || !why.empty() ? ~0u : offsetOf(rets[0], why);
            in.ctrl = why.empty() ? (name == "vprintf" ? Ctrl::Printf : Ctrl::Assert) : Ctrl::Unsupported;
            pushInstr(in, st, why);
            return;
        }
        const RawFunction* callee = nullptr;
        for (const auto& r : raws_)
            if (r.fn.name == name) callee = &r;
        if (!callee) why = "call to `" + name + "`, which has no body in the module";
        else if (std::find(scope.callStack.begin(), scope.callStack.end(), name) != scope.callStack.end() ||
                 scope.callStack.size() > 16)
            why = "recursive call to `" + name + "`";
        else if (args.size() != callee->fn.params.size() || rets.size() != callee->rets.size())
            why = "call to `" + name + "` with a different number of arguments than it declares";
        if (!why.empty()) {
            in.ctrl = Ctrl::Unsupported;
            pushInstr(in, st, why);
            return;
        }
        Scope inner;
        inner.callStack = scope.callStack;
        inner.callStack.push_back(name);
        for (std::size_t k = 0; k < args.size() && why.empty(); ++k) inner.locals[callee->fn.params[k].name] = offsetOf(args[k], why);
        for (std::size_t k = 0; k < rets.size() && why.empty(); ++k) inner.locals[callee->rets[k].name] = offsetOf(rets[k], why);
        std::size_t skip = ~std::size_t(0);
        if (in.guard >= 0) { // a guarded call: branch around the inlined body when the guard is false
            Instr bra = in;
            bra.guardNeg = !in.guardNeg;
            bra.ctrl = Ctrl::Bra;
            skip = fn_->code.size();
            pushInstr(bra, st, why);
        }
        const SourceLoc callLoc = loc_;
        emitBody(*callee, inner);
        loc_ = callLoc;
        const auto end = std::uint32_t(fn_->code.size());
        for (std::size_t r : inner.rets) fn_->code[r].target = end;
        if (skip != ~std::size_t(0)) fn_->code[skip].target = end;
        if (!why.empty()) markUnsupported(end ? end - 1 : 0, why);
    }

    static std::string nameBeforeDims(const Statement& st) {
        for (std::size_t i = 0; i + 1 < st.size(); ++i)
            if (st[i + 1].text == "[") return st[i].text;
        return st.back().text;
    }

    static void declaredVar(const Statement& st, std::uint32_t& align, std::uint64_t& size) {
        PtxType type = PtxType::B8;
        std::uint64_t count = 1;
        int vec = 1;
        for (std::size_t i = 1; i < st.size(); ++i) {
            const std::string& t = st[i].text;
            if (t == ".align") align = alignment(st[++i]);
            else if (t == ".v2" || t == ".v4") vec = t == ".v2" ? 2 : 4;
            else if (!t.empty() && t[0] == '.' && parsePtxType(t.substr(1)) != PtxType::None) type = parsePtxType(t.substr(1));
            else if (t == "[" && i + 1 < st.size() && st[i + 1].kind == Token::Number) {
                ++i;
                count = checkedProduct(count, parseUnsigned(st[i].text), st[i], "the variable's size");
            }
        }
        size = checkedProduct(checkedProduct(count, std::uint64_t(sizeOf(type)), st[0], "the variable's size"),
                              std::uint64_t(vec), st[0], "the variable's size");
        align = std::max<std::uint32_t>(align, sizeOf(type));
    }

    SourceLoc parseLoc(const Statement& st) {
        SourceLoc l;
        l.file = static_cast<std::uint16_t>(parseUnsigned(st[1].text));
        l.line = static_cast<std::uint32_t>(parseUnsigned(st[2].text));
        // Report an inlined library line at the user's call site (the outermost inlined_at).
        for (std::size_t i = 0; i + 3 < st.size(); ++i)
            if (st[i].text == "inlined_at") {
                l.file = static_cast<std::uint16_t>(parseUnsigned(st[i + 1].text));
                l.line = static_cast<std::uint32_t>(parseUnsigned(st[i + 2].text));
            }
        return l;
    }

    static std::unordered_map<std::string, std::uint32_t> specialRegisters() {
        return {
            {"%tid.x", RegTidX}, {"%tid.y", RegTidY}, {"%tid.z", RegTidZ},
            {"%ntid.x", RegNtidX}, {"%ntid.y", RegNtidY}, {"%ntid.z", RegNtidZ},
            {"%ctaid.x", RegCtaidX}, {"%ctaid.y", RegCtaidY}, {"%ctaid.z", RegCtaidZ},
            {"%nctaid.x", RegNctaidX}, {"%nctaid.y", RegNctaidY}, {"%nctaid.z", RegNctaidZ},
            {"%laneid", RegLaneId}, {"%warpid", RegWarpId}, {"%nwarpid", RegNwarpId},
            {"%lanemask_eq", RegLanemaskEq}, {"%lanemask_lt", RegLanemaskLt}, {"%lanemask_le", RegLanemaskLe},
            {"%lanemask_gt", RegLanemaskGt}, {"%lanemask_ge", RegLanemaskGe},
            {"%dynamic_smem_size", RegDynSmem}, {"%total_smem_size", RegTotalSmem},
            {"%smid", RegSmId}, {"%nsmid", RegNsmId}, {"%gridid", RegGridId},
            {"%aggr_smem_size", RegTotalSmem},
            // Without clusters every block is a cluster of one (what a GPU reports for a plain launch).
            {"%clusterid.x", RegCtaidX}, {"%clusterid.y", RegCtaidY}, {"%clusterid.z", RegCtaidZ},
            {"%nclusterid.x", RegNctaidX}, {"%nclusterid.y", RegNctaidY}, {"%nclusterid.z", RegNctaidZ},
            {"%cluster_ctaid.x", RegZero}, {"%cluster_ctaid.y", RegZero}, {"%cluster_ctaid.z", RegZero},
            {"%cluster_nctaid.x", RegOne}, {"%cluster_nctaid.y", RegOne}, {"%cluster_nctaid.z", RegOne},
            {"%cluster_ctarank", RegZero}, {"%cluster_nctarank", RegOne}, {"%is_explicit_cluster", RegZero},
            {"%reserved_smem_offset_begin", RegZero}, {"%reserved_smem_offset_end", RegZero},
            {"%reserved_smem_offset_cap", RegZero},
            {"_", RegSink},
        };
    }

    static void declareRegs(const Statement& st, Function& fn,
                            std::unordered_map<std::string, std::uint32_t>& regs) {
        for (std::size_t i = 1; i < st.size(); ++i) {
            const Token& t = st[i];
            if (t.kind != Token::Ident || t.text[0] == '.') continue;
            if (i + 3 < st.size() && st[i + 1].text == "<") {
                auto n = parseUnsigned(st[i + 2].text);
                if (n > kMaxRegisters || fn.numRegs + n > kMaxRegisters)
                    fail(st[i + 2], "declares " + std::to_string(n) + " registers; the simulator takes at most " +
                                        std::to_string(kMaxRegisters) + " registers per kernel");
                for (std::uint64_t k = 0; k < n; ++k) regs[t.text + std::to_string(k)] = fn.numRegs++;
                i += 3;
            } else {
                if (fn.numRegs >= kMaxRegisters)
                    fail(t, "more than " + std::to_string(kMaxRegisters) + " registers in one kernel");
                regs[t.text] = fn.numRegs++; // a declaration in a nested block shadows the outer one
            }
        }
    }

    static std::string statementText(const Statement& st) {
        std::string s;
        for (std::size_t i = 0; i < st.size(); ++i) {
            const std::string& t = st[i].text;
            bool glue = t == "," || t == "]" || t == "}" || t == ")" || t == "|" || t == "+" ||
                        (i > 0 && (st[i - 1].text == "[" || st[i - 1].text == "{" || st[i - 1].text == "(" ||
                                   st[i - 1].text == "!" || st[i - 1].text == "@" || st[i - 1].text == "|" ||
                                   st[i - 1].text == "+" || st[i - 1].text == "-"));
            if (!s.empty() && !glue) s += ' ';
            s += t;
        }
        return s + ";";
    }

    Instr decodeStatement(const Statement& st,
                          const std::unordered_map<std::string, std::uint32_t>& regs,
                          const std::unordered_map<std::string, std::uint64_t>& locals, const DecodeEnv& env,
                          SourceLoc loc) {
        Instr in;
        in.line = loc.line;
        in.file = loc.file;
        std::size_t i = 0;
        if (st[0].text == "@") {
            i = 1;
            if (st[i].text == "!") { in.guardNeg = true; ++i; }
            auto it = regs.find(st[i].text);
            if (it == regs.end()) fail(st[i], "unknown guard predicate");
            in.guard = static_cast<std::int32_t>(it->second);
            ++i;
        }
        const std::string opcode = st[i++].text;
        std::vector<PtxOperand> ops;
        std::string why;
        while (i < st.size() && why.empty()) {
            ops.push_back(operand(st, i, regs, locals, why));
            if (i < st.size() && st[i].text == ",") ++i;
        }
        if (why.empty()) why = decodeInstr(opcode, ops, in, env);
        if (!why.empty()) {
            in.ctrl = Ctrl::Unsupported;
            in.fn = nullptr;
            lastWhy_ = why;
        }
        return in;
    }

    const Function* cur_ = nullptr;
    std::string lastWhy_;

    const ParamDecl* kernelParam(const std::string& name) const {
        if (!scope_ || !scope_->kernelParams) return nullptr;
        for (const auto& p : *scope_->kernelParams)
            if (p.name == name) return &p;
        return nullptr;
    }

    PtxOperand operand(const Statement& st, std::size_t& i,
                       const std::unordered_map<std::string, std::uint32_t>& regs,
                       const std::unordered_map<std::string, std::uint64_t>& locals, std::string& why) {
        PtxOperand op;
        auto regOf = [&](const Token& t) -> std::uint32_t {
            auto it = regs.find(t.text);
            if (it == regs.end()) { why = "unknown register " + t.text; return RegZero; }
            return it->second;
        };
        const Token& t = st[i];
        if (t.text == "[") {
            op.kind = PtxOperand::Kind::Mem;
            ++i;
            op.reg = RegZero;
            bool first = true;
            while (i < st.size() && st[i].text != "]") {
                const Token& e = st[i];
                if (e.text == "+") { ++i; continue; }
                bool negative = false;
                if (e.text == "-") { negative = true; ++i; }
                const Token& v = st[i];
                if (v.kind == Token::Number) {
                    // Addresses wrap modulo 2^64, as on the GPU; signed overflow would be undefined.
                    const std::uint64_t bits = immediateBits(v.text, PtxType::S64);
                    op.offset = wrappingAdd(op.offset, negative ? 0 - bits : bits);
                } else if (first && regs.count(v.text)) {
                    op.reg = regs.at(v.text);
                } else if (const ParamDecl* p = kernelParam(v.text)) {
                    op.memSpace = Space::Param;
                    op.offset = wrappingAdd(op.offset, p->offset);
                } else if (locals.count(v.text)) {
                    op.memSpace = Space::Local;
                    op.offset = wrappingAdd(op.offset, locals.at(v.text));
                } else if (globalIndex_.count(v.text)) {
                    const GlobalVar& g = mod_.globals[globalIndex_.at(v.text)];
                    op.memSpace = g.space;
                    op.offset = wrappingAdd(op.offset, g.address);
                } else {
                    why = "unknown name " + v.text + " in address";
                }
                first = false;
                ++i;
            }
            ++i; // ]
            return op;
        }
        if (t.text == "{" || t.text == "(") {
            const std::string close = t.text == "{" ? "}" : ")";
            op.kind = PtxOperand::Kind::Vec;
            ++i;
            while (i < st.size() && st[i].text != close) {
                if (st[i].text != ",") {
                    if (regs.count(st[i].text)) op.regs.push_back(regs.at(st[i].text));
                    else { op.kind = PtxOperand::Kind::Vec; why = why.empty() ? "unknown name " + st[i].text : why; }
                }
                ++i;
            }
            ++i;
            return op;
        }
        if (t.text == "!") {
            ++i;
            op.kind = PtxOperand::Kind::Reg;
            op.neg = true;
            op.reg = regOf(st[i++]);
            return op;
        }
        if (t.text == "WARP_SZ") { // the PTX constant behind warpSize
            op.kind = PtxOperand::Kind::Imm;
            op.text = "32";
            ++i;
            return op;
        }
        if (t.text == "-" || t.kind == Token::Number) {
            op.kind = PtxOperand::Kind::Imm;
            if (t.text == "-") { op.text = "-"; ++i; }
            op.text += st[i++].text;
            return op;
        }
        if (regs.count(t.text)) {
            op.kind = PtxOperand::Kind::Reg;
            op.reg = regs.at(t.text);
            ++i;
            if (i + 1 < st.size() && st[i].text == "|") {
                op.hasPair = true;
                op.reg2 = regOf(st[i + 1]);
                i += 2;
            }
            return op;
        }
        op.kind = PtxOperand::Kind::Sym;
        op.text = t.text;
        if (globalIndex_.count(t.text)) {
            const GlobalVar& g = mod_.globals[globalIndex_.at(t.text)];
            op.symKnown = true;
            op.symAddr = g.address;
            op.symSpace = g.space;
        } else if (locals.count(t.text)) {
            op.symKnown = true;
            op.symAddr = locals.at(t.text);
            op.symSpace = Space::Local;
        }
        ++i;
        return op;
    }

};

} // namespace

std::uint64_t immediateBits(const std::string& text, PtxType type) {
    const bool negative = !text.empty() && text[0] == '-';
    std::string s = negative ? text.substr(1) : text;
    auto negate = [&](std::uint64_t bits) { return negative ? ~bits + 1 : bits; };
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        auto b = static_cast<std::uint32_t>(std::strtoull(s.c_str() + 2, nullptr, 16));
        return negative ? b ^ 0x80000000u : b;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        const std::uint64_t b = std::strtoull(s.c_str() + 2, nullptr, 16);
        return negative ? b ^ 0x8000000000000000ull : b;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return negate(std::strtoull(s.c_str() + 2, nullptr, 16));
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        return negate(std::strtoull(s.c_str() + 2, nullptr, 2));
    if (s.find_first_of(".eE") != std::string::npos) { // decimal floating-point literal
        double d = std::strtod(s.c_str(), nullptr);
        if (negative) d = -d;
        std::uint64_t bits = 0;
        if (type == PtxType::F32) {
            const float f = static_cast<float>(d);
            std::memcpy(&bits, &f, 4);
        } else {
            std::memcpy(&bits, &d, 8);
        }
        return bits;
    }
    while (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
    return negate(std::strtoull(s.c_str(), nullptr, 10));
}

Module parsePtx(std::string_view text) { return Parser(text).run(); }

} // namespace kw::sim
