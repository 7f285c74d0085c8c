#pragma once
// The PTX parser's state, shared by its two halves: PtxParser.cpp reads the module's
// directives and declarations, PtxInstructions.cpp decodes function bodies (statements,
// operands, calls) once the layout is known.
#include "compile/PtxDeclaration.hpp"
#include "sim/InstrDecoder.hpp"
#include "sim/PtxLexer.hpp"
#include "sim/PtxModule.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kw::sim::ptx {

// A function body as statements (token ranges), decoded after the module layout is known.
struct RawFunction {
    Function fn;
    std::vector<ParamDecl> rets; // .func return parameters
    std::vector<Statement> body;
};

using Declaration = kw::ptx::PtxDeclaration;

struct SourceLoc {
    std::uint16_t file = 0;
    std::uint32_t line = 0;
};

class Parser {
public:
    explicit Parser(std::string_view text)
        : toks_(tokenize(text))
    {
    }

    Module run();

private:
    std::vector<Token> toks_;
    std::size_t pos_ = 0;
    Module mod_;
    std::vector<RawFunction> raws_;
    std::unordered_map<std::string, std::size_t> globalIndex_;
    std::uint32_t staticShared_ = 0;
    std::uint64_t variableBytes_ = 0; // all variables so far, against kMaxModuleVariableBytes

    const Token& peek(std::size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
    const Token& next();
    bool accept(const char* text);
    void expect(const char* text);
    static std::uint32_t alignment(std::uint64_t a, const Token& t);

    // Reads a declaration, a problem with its shape raised as a parse error.
    static Declaration declaration(const std::vector<Token>& tokens, std::size_t begin, std::size_t end);
    static PtxType typeOf(const Declaration& d); // .b8 when none is written
    // The product of the sized dimensions, an overflow raised at `at`.
    static std::uint64_t elements(const Declaration::Name& n, const Token& at, const char* what);
    void skipBraces();
    void topLevel();

    // .global/.const/.shared [.align N] [.vN] .type name[dims] [= init];
    void variable(bool isExtern, std::vector<GlobalVar>& into);

    // Parameter list "( .param .u64 name, ... )".
    std::vector<ParamDecl> paramList();

    void function();

    // Global/const variables get fake device addresses; shared ones offsets in one
    // block-wide layout with the extern (dynamic) part last.
    void layout();

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
    // Each inlined position (file, line, column) seen in a .loc, and the user's line it was
    // inlined into: a .loc names only the call one level out, so the chain is followed here.
    std::map<std::array<std::uint32_t, 3>, SourceLoc> inlinedInto_;
    std::uint32_t frame_ = 0; // the CallFrame the instructions pushed now belong to

    // The GPU gives a thread at most 512 KiB of local memory (the CUDA programming
    // guide's limit for every architecture since sm_20); the simulator holds to it.
    static constexpr std::uint64_t kMaxLocalPerThread = std::uint64_t(512) << 10;

    std::uint32_t allocLocal(std::uint64_t size, std::uint32_t align);
    // .local and call .param variables: each name gets its place in the local frame.
    void declareLocals(const Statement& st, std::unordered_map<std::string, std::uint64_t>& locals);
    SourceLoc parseLoc(const Statement& st);
    static std::unordered_map<std::string, std::uint32_t> specialRegisters();
    static void declareRegs(const Statement& st, Function& fn, std::unordered_map<std::string, std::uint32_t>& regs);
    static void nameRegister(Function& fn, std::unordered_map<std::string, std::uint32_t>& regs,
                             const std::string& name, PtxType type = PtxType::None);

    // PtxInstructions.cpp: function bodies.
    void decodeFunction(RawFunction& raw);
    void pushInstr(Instr in, const Statement& st, const std::string& why);
    void markUnsupported(std::size_t index, const std::string& why);
    void emitBody(const RawFunction& raw, Scope& scope);

    // call[.uni] [(ret),] name[, (args)]: printf and assert are built in; device
    // functions with a body are inlined, their parameters living in the local frame.
    void emitCall(const Statement& st, std::size_t op, Scope& scope);
    static std::string statementText(const Statement& st);
    Instr decodeStatement(const Statement& st, const std::unordered_map<std::string, std::uint32_t>& regs,
                          const std::unordered_map<std::string, std::uint64_t>& locals, const DecodeEnv& env,
                          SourceLoc loc);

    const Function* cur_ = nullptr;
    std::string lastWhy_;

    const ParamDecl* kernelParam(const std::string& name) const;
    PtxOperand operand(const Statement& st, std::size_t& i, const std::unordered_map<std::string, std::uint32_t>& regs,
                       const std::unordered_map<std::string, std::uint64_t>& locals, std::string& why);
};

} // namespace kw::sim::ptx
