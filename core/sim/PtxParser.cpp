// The PTX parser's first half: the module's directives and declarations (.version,
// variables, functions and their parameters, .file/.loc) and the memory layout.
// Function bodies are decoded by PtxInstructions.cpp.
#include "sim/PtxParser.hpp"

#include "sim/PtxParserState.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace kw::sim {

const Function* Module::findFunction(const std::string& name) const
{
    for (const auto& f : functions)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::uint32_t Module::reservedSharedOffset(std::uint32_t dynamicBytes) const
{
    const std::uint32_t user = dynamicBytes ? dynamicSharedOffset + dynamicBytes : staticShared;
    return reservedShared ? (user + 15) / 16 * 16 : user;
}

std::uint32_t Module::sharedBytes(std::uint32_t dynamicBytes) const
{
    return reservedSharedOffset(dynamicBytes) + reservedShared;
}

const std::string& Function::registerName(std::uint32_t index) const
{
    static const std::string none;
    return index < regNames.size() ? regNames[index] : none;
}

PtxType Function::registerType(std::uint32_t index) const
{
    return index < regTypes.size() ? regTypes[index] : PtxType::None;
}

std::vector<const CallFrame*> Function::callStack(std::uint32_t pc) const
{
    std::vector<const CallFrame*> stack;
    if (pc >= frame.size())
        return stack;
    for (std::uint32_t f = frame[pc];; f = frames[f].parent) {
        stack.push_back(&frames[f]);
        if (f == 0)
            break;
    }
    return stack;
}

std::string Module::fileName(std::uint16_t index) const { return index < files.size() ? files[index] : std::string(); }

Module parsePtx(std::string_view text) { return ptx::Parser(text).run(); }

namespace ptx {

Module Parser::run()
{
    while (peek().kind != Token::End)
        topLevel();
    layout();
    for (auto& raw : raws_)
        decodeFunction(raw);
    return std::move(mod_);
}

const Token& Parser::next()
{
    const Token& t = peek();
    if (pos_ < toks_.size() - 1)
        ++pos_;
    return t;
}

bool Parser::accept(const char* text)
{
    if (peek().text == text && peek().kind != Token::String) {
        next();
        return true;
    }
    return false;
}

void Parser::expect(const char* text)
{
    if (!accept(text))
        fail(peek(), std::string("expected '") + text + "'");
}

std::uint32_t Parser::alignment(std::uint64_t a, const Token& t)
{
    if (a > kMaxAlign)
        fail(t, "alignment larger than " + std::to_string(kMaxAlign));
    return static_cast<std::uint32_t>(a);
}

void Parser::skipBraces()
{
    expect("{");
    int depth = 1;
    while (depth > 0) {
        const Token& t = next();
        if (t.kind == Token::End)
            fail(t, "unterminated block");
        if (t.kind == Token::Punct && t.text == "{")
            ++depth;
        if (t.kind == Token::Punct && t.text == "}")
            --depth;
    }
}

void Parser::topLevel()
{
    const Token& t = peek();
    if (t.text == ".version" || t.text == ".address_size") {
        next();
        next();
        return;
    }
    if (t.text == ".target") {
        next();
        next();
        while (accept(","))
            next();
        return;
    }
    if (t.text == ".file") {
        next();
        const Token& at = next();
        const auto index = parseUnsigned(at.text);
        if (index > kMaxFiles)
            fail(at, ".file index too large");
        std::string path = next().text;
        while (accept(","))
            next();
        if (mod_.files.size() <= index)
            mod_.files.resize(index + 1);
        mod_.files[index] = path;
        return;
    }
    if (t.text == ".section") {
        next();
        next();
        skipBraces();
        return;
    }
    bool isExtern = false;
    while (peek().text == ".visible" || peek().text == ".extern" || peek().text == ".weak"
           || peek().text == ".common") {
        if (peek().text == ".extern")
            isExtern = true;
        next();
    }
    const std::string kind = peek().text;
    if (kind == ".entry" || kind == ".func") {
        function();
        return;
    }
    if (kind == ".global" || kind == ".const" || kind == ".shared") {
        variable(isExtern, mod_.globals);
        return;
    }
    fail(t, "unexpected top-level directive");
}

Declaration Parser::declaration(const std::vector<Token>& tokens, std::size_t begin, std::size_t end)
{
    Declaration d = Declaration::read(tokens, begin, end);
    if (d.problem)
        fail(tokens[d.problem->token], d.problem->what);
    return d;
}

PtxType Parser::typeOf(const Declaration& d)
{
    const PtxType t = d.type.empty() ? PtxType::None : parsePtxType(std::string_view(d.type).substr(1));
    return t == PtxType::None ? PtxType::B8 : t;
}

std::uint64_t Parser::elements(const Declaration::Name& n, const Token& at, const char* what)
{
    std::uint64_t count = 1;
    for (const auto& dim : n.dims)
        if (!dim.unsized)
            count = checkedProduct(count, dim.size, at, what);
    return count;
}

void Parser::variable(bool isExtern, std::vector<GlobalVar>& into)
{
    const Declaration d = declaration(toks_, pos_, toks_.size());
    pos_ = d.end;
    if (d.names.size() > 1)
        fail(toks_[d.names[1].token - 1], "expected ';'");
    const Token& nameTok = toks_[d.names[0].token];
    GlobalVar v;
    v.space = d.space == ".shared" ? Space::Shared : d.space == ".const" ? Space::Const : Space::Global;
    v.isExtern = isExtern;
    if (d.align)
        v.align = alignment(*d.align, toks_[d.alignToken]);
    const PtxType type = typeOf(d);
    v.name = nameTok.text;
    const std::uint64_t count = elements(d.names[0], nameTok, "the variable's size");
    const int elem = sizeOf(type) * d.vector;
    v.size = d.names[0].unsized() ? 0 : checkedProduct(count, std::uint64_t(elem), nameTok, "the variable's size");
    if (v.size > kMaxVariableBytes)
        fail(nameTok,
             "variable of " + std::to_string(v.size) + " bytes; the simulator takes at most "
                 + std::to_string(kMaxVariableBytes) + " bytes per variable");
    variableBytes_ += v.size; // each below 2^30: no overflow before the check
    if (variableBytes_ > kMaxModuleVariableBytes)
        fail(nameTok,
             "the module's variables take more than " + std::to_string(kMaxModuleVariableBytes >> 30)
                 + " GiB together; the simulator takes at most that much");
    if (v.align < static_cast<std::uint32_t>(sizeOf(type)))
        v.align = std::max<std::uint32_t>(v.align, sizeOf(type));
    v.init.assign(v.size, 0);
    if (accept("=")) {
        std::vector<std::string> values;
        auto readValue = [&] {
            bool negative = accept("-");
            const Token& tk = next();
            if (tk.kind != Token::Number)
                fail(tk, "only numeric initialisers are supported");
            values.push_back((negative ? "-" : "") + tk.text);
        };
        if (accept("{")) {
            int depth = 1;
            while (depth > 0) {
                if (accept("{")) {
                    ++depth;
                    continue;
                }
                if (accept("}")) {
                    --depth;
                    continue;
                }
                if (accept(","))
                    continue;
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

std::vector<ParamDecl> Parser::paramList()
{
    std::vector<ParamDecl> params;
    expect("(");
    while (!accept(")")) {
        if (peek().kind == Token::End)
            fail(peek(), "unterminated parameter list");
        const Declaration d = Declaration::read(toks_, pos_, toks_.size());
        pos_ = d.end;
        if (peek().kind == Token::End)
            fail(peek(), "unterminated parameter list");
        if (d.problem)
            fail(toks_[d.problem->token], d.problem->what);
        const PtxType type = typeOf(d);
        // The parameter's own alignment; a .ptr's .align is its pointee's.
        const std::uint32_t align = d.align ? alignment(*d.align, toks_[d.alignToken]) : 0;
        for (const auto& name : d.names) {
            const Token& nameTok = toks_[name.token];
            ParamDecl p;
            p.name = nameTok.text;
            const std::uint64_t count = name.unsized() ? 0 : elements(name, nameTok, "the parameter's size");
            const std::uint64_t size
                = checkedProduct(count, std::uint64_t(sizeOf(type)) * d.vector, nameTok, "the parameter's size");
            if (size > kMaxParamBytes)
                fail(nameTok, "parameter larger than the parameter space");
            p.size = static_cast<std::uint32_t>(size);
            p.align = align ? align : static_cast<std::uint32_t>(sizeOf(type));
            params.push_back(p);
        }
        accept(",");
    }
    return params;
}

void Parser::function()
{
    RawFunction raw;
    raw.fn.isEntry = next().text == ".entry";
    if (peek().text == "(")
        raw.rets = paramList(); // return value
    raw.fn.name = next().text;
    if (peek().text == "(")
        raw.fn.params = paramList();
    std::uint32_t offset = 0;
    for (auto& p : raw.fn.params) {
        offset = static_cast<std::uint32_t>(alignUp(offset, std::max<std::uint32_t>(p.align, 1)));
        p.offset = offset;
        offset += p.size;
        if (offset > kMaxParamBytes)
            fail(peek(), "parameters larger than the parameter space");
    }
    raw.fn.paramBytes = offset;
    while (peek().text != "{" && peek().text != ";") {
        if (peek().kind == Token::End)
            fail(peek(), "unterminated function header");
        if (next().text == ".reqnctapercluster") // __cluster_dims__: blocks per cluster
            for (std::uint32_t& n : raw.fn.clusterDims) {
                if (peek().kind != Token::Number)
                    break;
                n = std::uint32_t(std::min<std::uint64_t>(parseUnsigned(next().text), 0xffffffffu));
                accept(",");
            }
        // other performance directives (.maxntid, .noreturn) do not change what the kernel computes
    }
    if (accept(";"))
        return; // declaration only
    expect("{");
    int depth = 1;
    Statement stmt;
    auto flush = [&] {
        if (!stmt.empty()) {
            raw.body.push_back(std::move(stmt));
            stmt.clear();
        }
    };
    while (depth > 0) {
        const Token& t = next();
        if (t.kind == Token::End)
            fail(t, "unterminated function body");
        // Nested blocks scope their .reg/.param names: keep the braces as statements.
        if (t.kind == Token::Punct && t.text == "{" && stmt.empty()) {
            ++depth;
            raw.body.push_back({t});
            continue;
        }
        if (t.kind == Token::Punct && t.text == "}" && stmt.empty()) {
            if (--depth > 0)
                raw.body.push_back({t});
            continue;
        }
        if (t.kind == Token::Ident && (t.text == ".loc" || t.text == ".file")) {
            // No ';' terminates these: they take a fixed shape.
            flush();
            stmt.push_back(t);
            stmt.push_back(next());
            stmt.push_back(next());
            stmt.push_back(next());
            while (peek().text == ",") {
                stmt.push_back(next());
                stmt.push_back(next());
                if (stmt.back().text == "inlined_at") {
                    stmt.push_back(next());
                    stmt.push_back(next());
                    stmt.push_back(next());
                } else if (stmt.back().text == "function_name")
                    stmt.push_back(next());
            }
            flush();
            continue;
        }
        if (t.kind == Token::Punct && t.text == ":" && stmt.size() == 1) {
            stmt.push_back(t);
            flush();
            continue;
        }
        if (t.kind == Token::Punct && t.text == ";") {
            flush();
            continue;
        }
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

void Parser::layout()
{
    std::uint64_t addr = kGlobalBase;
    std::uint64_t shared = 0;
    std::uint32_t dynAlign = 16;
    for (auto& v : mod_.globals) {
        if (v.space == Space::Shared) {
            if (v.isExtern) {
                dynAlign = std::max(dynAlign, v.align);
                continue;
            }
            shared = alignUp(shared, std::max<std::uint32_t>(v.align, 1));
            v.address = shared;
            shared += v.size;
            if (shared > kMaxVariableBytes)
                throw Error(ErrorCategory::Limit,
                            "the module's static shared memory exceeds " + std::to_string(kMaxVariableBytes)
                                + " bytes");
        } else {
            addr = (addr + 255) / 256 * 256;
            v.address = addr;
            addr += std::max<std::uint64_t>(v.size, 1) + 256;
        }
    }
    mod_.staticShared = static_cast<std::uint32_t>(shared);
    mod_.dynamicSharedOffset = static_cast<std::uint32_t>(alignUp(shared, dynAlign));
    for (auto& v : mod_.globals)
        if (v.space == Space::Shared && v.isExtern)
            v.address = mod_.dynamicSharedOffset;
}

std::uint32_t Parser::allocLocal(std::uint64_t size, std::uint32_t align)
{
    const std::uint64_t at = alignUp(fn_->localBytes, std::max<std::uint32_t>(align, 1));
    if (size > kMaxLocalPerThread || at + size > kMaxLocalPerThread)
        throw Error(ErrorCategory::Limit,
                    "kernel " + fn_->name + " needs more than 512 KiB of local memory per thread ("
                        + std::to_string(at + std::min(size, kMaxLocalPerThread * 1024))
                        + " bytes of stack and local arrays); a GPU allows at most 512 KiB per thread");
    fn_->localBytes = static_cast<std::uint32_t>(at + size);
    return static_cast<std::uint32_t>(at);
}

void Parser::declareLocals(const Statement& st, std::unordered_map<std::string, std::uint64_t>& locals)
{
    const Declaration d = declaration(st, 0, st.size());
    const PtxType type = typeOf(d);
    const std::uint32_t align
        = std::max<std::uint32_t>(d.align ? alignment(*d.align, st[d.alignToken]) : 1, sizeOf(type));
    for (const auto& name : d.names) {
        // An unsized dimension counts as one element here.
        std::uint64_t count = 1;
        for (const auto& dim : name.dims)
            if (!dim.unsized)
                count = checkedProduct(count, dim.size, st[dim.token], "the variable's size");
        const std::uint64_t size
            = checkedProduct(checkedProduct(count, std::uint64_t(sizeOf(type)), st[0], "the variable's size"),
                             std::uint64_t(d.vector), st[0], "the variable's size");
        locals[name.text] = allocLocal(size, align);
    }
}

SourceLoc Parser::parseLoc(const Statement& st)
{
    SourceLoc l;
    l.file = static_cast<std::uint16_t>(parseUnsigned(st[1].text));
    l.line = static_cast<std::uint32_t>(parseUnsigned(st[2].text));
    const bool hasColumn
        = st.size() > 3 && !st[3].text.empty() && std::isdigit(static_cast<unsigned char>(st[3].text[0]));
    const auto column = hasColumn ? static_cast<std::uint32_t>(parseUnsigned(st[3].text)) : 0u;
    // An inlined line is reported at the user's call site: the call this .loc was inlined
    // at, and from there outwards through the calls earlier .locs were inlined at.
    for (std::size_t i = 0; i + 3 < st.size(); ++i)
        if (st[i].text == "inlined_at") {
            const std::array<std::uint32_t, 3> call{static_cast<std::uint32_t>(parseUnsigned(st[i + 1].text)),
                                                    static_cast<std::uint32_t>(parseUnsigned(st[i + 2].text)),
                                                    static_cast<std::uint32_t>(parseUnsigned(st[i + 3].text))};
            const auto outer = inlinedInto_.find(call);
            const SourceLoc site
                = outer != inlinedInto_.end() ? outer->second : SourceLoc{static_cast<std::uint16_t>(call[0]), call[1]};
            inlinedInto_[{l.file, l.line, column}] = site;
            return site;
        }
    return l;
}

std::unordered_map<std::string, std::uint32_t> Parser::specialRegisters()
{
    return {
        {"%tid.x", RegTidX},
        {"%tid.y", RegTidY},
        {"%tid.z", RegTidZ},
        {"%ntid.x", RegNtidX},
        {"%ntid.y", RegNtidY},
        {"%ntid.z", RegNtidZ},
        {"%ctaid.x", RegCtaidX},
        {"%ctaid.y", RegCtaidY},
        {"%ctaid.z", RegCtaidZ},
        {"%nctaid.x", RegNctaidX},
        {"%nctaid.y", RegNctaidY},
        {"%nctaid.z", RegNctaidZ},
        {"%laneid", RegLaneId},
        {"%warpid", RegWarpId},
        {"%nwarpid", RegNwarpId},
        {"%lanemask_eq", RegLanemaskEq},
        {"%lanemask_lt", RegLanemaskLt},
        {"%lanemask_le", RegLanemaskLe},
        {"%lanemask_gt", RegLanemaskGt},
        {"%lanemask_ge", RegLanemaskGe},
        {"%dynamic_smem_size", RegDynSmem},
        {"%total_smem_size", RegTotalSmem},
        {"%smid", RegSmId},
        {"%nsmid", RegNsmId},
        {"%gridid", RegGridId},
        {"%aggr_smem_size", RegTotalSmem},
        // Without clusters every block is a cluster of one (what a GPU reports for a plain launch).
        {"%clusterid.x", RegCtaidX},
        {"%clusterid.y", RegCtaidY},
        {"%clusterid.z", RegCtaidZ},
        {"%nclusterid.x", RegNctaidX},
        {"%nclusterid.y", RegNctaidY},
        {"%nclusterid.z", RegNctaidZ},
        {"%cluster_ctaid.x", RegZero},
        {"%cluster_ctaid.y", RegZero},
        {"%cluster_ctaid.z", RegZero},
        {"%cluster_nctaid.x", RegOne},
        {"%cluster_nctaid.y", RegOne},
        {"%cluster_nctaid.z", RegOne},
        {"%cluster_ctarank", RegZero},
        {"%cluster_nctarank", RegOne},
        {"%is_explicit_cluster", RegZero},
        {"%reserved_smem_offset_begin", RegReservedBegin},
        {"%reserved_smem_offset_end", RegReservedEnd},
        {"%reserved_smem_offset_cap", RegReservedCap},
        {"%reserved_smem_offset_0", RegReserved0},
        {"%reserved_smem_offset_1", RegReserved1},
        {"_", RegSink},
    };
}

void Parser::nameRegister(Function& fn, std::unordered_map<std::string, std::uint32_t>& regs, const std::string& name,
                          PtxType type)
{
    regs[name] = fn.numRegs;
    if (fn.regNames.size() <= fn.numRegs)
        fn.regNames.resize(fn.numRegs + 1);
    if (fn.regTypes.size() <= fn.numRegs)
        fn.regTypes.resize(fn.numRegs + 1, PtxType::None);
    fn.regTypes[fn.numRegs] = type;
    fn.regNames[fn.numRegs++] = name;
}

void Parser::declareRegs(const Statement& st, Function& fn, std::unordered_map<std::string, std::uint32_t>& regs)
{
    const Declaration decl = declaration(st, 0, st.size());
    const PtxType type = decl.type.empty() ? PtxType::None : parsePtxType(std::string_view(decl.type).substr(1));
    for (const auto& name : decl.names) {
        if (name.registers) {
            const std::uint64_t n = *name.registers;
            if (n > kMaxRegisters || fn.numRegs + n > kMaxRegisters)
                fail(st[name.registersToken],
                     "declares " + std::to_string(n) + " registers; the simulator takes at most "
                         + std::to_string(kMaxRegisters) + " registers per kernel");
            for (std::uint64_t k = 0; k < n; ++k)
                nameRegister(fn, regs, name.text + std::to_string(k), type);
        } else {
            if (fn.numRegs >= kMaxRegisters)
                fail(st[name.token], "more than " + std::to_string(kMaxRegisters) + " registers in one kernel");
            nameRegister(fn, regs, name.text, type); // a declaration in a nested block shadows the outer one
        }
    }
}

} // namespace ptx

} // namespace kw::sim
