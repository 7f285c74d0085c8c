// The PTX parser's second half: function bodies, statement by statement (labels,
// register and local declarations, calls inlined), each instruction's operands
// resolved to registers and handed to the decoder.
#include "sim/PtxParserState.hpp"

#include "util/Error.hpp"

#include <algorithm>
#include <cstring>

namespace kw::sim {

namespace ptx {

void Parser::decodeFunction(RawFunction& raw)
{
    if (!raw.fn.isEntry)
        return; // device functions are inlined where they are called
    Function fn = raw.fn;
    fn_ = &fn;
    inlinedInto_.clear();
    cur_ = &fn;
    consts_.clear();
    Scope scope;
    scope.kernelParams = &fn.params;
    scope.callStack.push_back(fn.name);
    fn.frames.push_back(CallFrame{fn.name});
    frame_ = 0;
    // The special registers by their PTX names; the cluster and smem aliases of one, and
    // the constants zero and one, keep none.
    fn.regNames.assign(fn.numRegs, std::string());
    for (const auto& [name, index] : scope.regs) {
        const bool alias = name.find("cluster") != std::string::npos || name.starts_with("%aggr")
            || name.starts_with("%reserved") || name == "_";
        if (!alias && index != RegZero && index != RegOne && index < fn.regNames.size())
            fn.regNames[index] = name;
    }
    emitBody(raw, scope);
    fn.regNames.resize(fn.numRegs);
    fn.regTypes.resize(fn.numRegs, PtxType::None);
    fn.localBytes = static_cast<std::uint32_t>(alignUp(fn.localBytes, 8));
    mod_.functions.push_back(std::move(fn));
}

void Parser::pushInstr(Instr in, const Statement& st, const std::string& why)
{
    // Inlining calls of calls can grow a small source without end: bounded before it does.
    if (fn_->code.size() >= kMaxInstructions)
        fail(st.empty() ? Token{} : st[0],
             "the kernel grows past " + std::to_string(kMaxInstructions)
                 + " instructions once its device functions are inlined; the simulator "
                   "takes at most that many");
    fn_->code.push_back(in);
    fn_->frame.push_back(frame_);
    fn_->text.push_back(statementText(st));
    fn_->unsupported.push_back(why);
}

void Parser::markUnsupported(std::size_t index, const std::string& why)
{
    fn_->code[index].ctrl = Ctrl::Unsupported;
    fn_->code[index].fn = nullptr;
    fn_->unsupported[index] = why;
}

void Parser::emitBody(const RawFunction& raw, Scope& scope)
{
    Scope* outer = scope_;
    scope_ = &scope;
    DecodeEnv env;
    env.constReg = [this](std::uint64_t bits) {
        auto it = consts_.find(bits);
        if (it != consts_.end())
            return it->second;
        std::uint32_t r = fn_->numRegs++;
        consts_[bits] = r;
        fn_->constRegs.emplace_back(r, bits);
        return r;
    };
    env.registerType = [this](std::uint32_t r) { return fn_->registerType(r); };
    env.matrixOp = [this](MatrixOp op) {
        fn_->matrixOps.push_back(std::move(op));
        return std::uint32_t(fn_->matrixOps.size() - 1);
    };
    env.label = [this](const std::string& name) {
        scope_->fixups.emplace_back(fn_->code.size(), name);
        return 0;
    };
    std::vector<
        std::pair<std::unordered_map<std::string, std::uint32_t>, std::unordered_map<std::string, std::uint64_t>>>
        saved;
    for (const auto& st : raw.body) {
        const std::string& head = st[0].text;
        if (st.size() == 1 && st[0].kind == Token::Punct && head == "{") {
            // Each level keeps a copy of the names in scope: deep nesting multiplied them.
            if (saved.size() >= kMaxBlockDepth)
                fail(st[0],
                     "blocks nested more than " + std::to_string(kMaxBlockDepth)
                         + " deep; the simulator takes at most that many");
            saved.emplace_back(scope.regs, scope.locals);
            continue;
        }
        if (st.size() == 1 && st[0].kind == Token::Punct && head == "}") {
            if (!saved.empty()) {
                scope.regs = std::move(saved.back().first);
                scope.locals = std::move(saved.back().second);
                saved.pop_back();
            }
            continue;
        }
        if (st.size() == 2 && st[1].text == ":") {
            scope.labels[head] = std::uint32_t(fn_->code.size());
            continue;
        }
        if (head == ".loc") {
            loc_ = parseLoc(st);
            continue;
        }
        if (head == ".reg") {
            declareRegs(st, *fn_, scope.regs);
            continue;
        }
        if (head == ".param" || head == ".local") {
            declareLocals(st, scope.locals);
            continue;
        }
        if (head[0] == '.')
            continue; // .pragma and other hints
        std::size_t op = head == "@" ? (st[1].text == "!" ? 3 : 2) : 0;
        if (op < st.size() && st[op].text.rfind("call", 0) == 0) {
            emitCall(st, op, scope);
            continue;
        }
        lastWhy_.clear();
        Instr in = decodeStatement(st, scope.regs, scope.locals, env, loc_);
        if (!scope.kernelParams && in.ctrl == Ctrl::Exit) { // ret of an inlined body
            in.ctrl = Ctrl::Bra;
            scope.rets.push_back(fn_->code.size());
        }
        pushInstr(in, st, lastWhy_);
    }
    // The names as this frame knows them, for debug information (DWARF names labels,
    // registers and the .local depot of the function as written).
    for (const auto& [name, pc] : scope.labels)
        fn_->labels.push_back(FrameName{name, frame_, pc});
    for (const auto& [name, index] : scope.regs)
        if (index >= RegFirstUser && name.starts_with('%'))
            fn_->registers.push_back(FrameName{name, frame_, index});
    for (const auto& [name, offset] : scope.locals)
        fn_->locals.push_back(FrameName{name, frame_, offset});
    for (const auto& [index, name] : scope.fixups) {
        auto it = scope.labels.find(name);
        if (it == scope.labels.end())
            markUnsupported(index, "branch to unknown label " + name);
        else
            fn_->code[index].target = it->second;
    }
    scope_ = outer;
}

void Parser::emitCall(const Statement& st, std::size_t op, Scope& scope)
{
    Instr in;
    in.line = loc_.line;
    in.file = loc_.file;
    if (st[0].text == "@") {
        in.guardNeg = st[1].text == "!";
        auto it = scope.regs.find(st[op - 1].text);
        if (it == scope.regs.end())
            fail(st[op - 1], "unknown guard predicate");
        in.guard = std::int32_t(it->second);
    }
    auto group = [&](std::size_t& i) {
        std::vector<std::string> names;
        if (i < st.size() && st[i].text == "(") {
            for (++i; i < st.size() && st[i].text != ")"; ++i)
                if (st[i].text != ",")
                    names.push_back(st[i].text);
            ++i;
        }
        if (i < st.size() && st[i].text == ",")
            ++i;
        return names;
    };
    std::size_t i = op + 1;
    std::vector<std::string> rets = group(i);
    const std::string name = i < st.size() ? st[i++].text : std::string();
    if (i < st.size() && st[i].text == ",")
        ++i;
    std::vector<std::string> args = group(i);
    auto offsetOf = [&](const std::string& n, std::string& why) -> std::uint32_t {
        auto it = scope.locals.find(n);
        if (it == scope.locals.end()) {
            why = "unknown call parameter " + n;
            return 0;
        }
        return std::uint32_t(it->second);
    };
    std::string why;
    if (name == "vprintf" || name == "__assertfail") {
        const std::size_t need = name == "vprintf" ? 2 : 4;
        if (args.size() < need)
            why = name + " with too few arguments";
        for (std::size_t k = 0; k < need && why.empty(); ++k)
            in.a[k] = offsetOf(args[k], why);
        in.d[0] = rets.empty() || !why.empty() ? ~0u : offsetOf(rets[0], why);
        in.ctrl = why.empty() ? (name == "vprintf" ? Ctrl::Printf : Ctrl::Assert) : Ctrl::Unsupported;
        pushInstr(in, st, why);
        return;
    }
    const RawFunction* callee = nullptr;
    for (const auto& r : raws_)
        if (r.fn.name == name)
            callee = &r;
    if (!callee)
        why = "call to `" + name + "`, which has no body in the module";
    else if (std::find(scope.callStack.begin(), scope.callStack.end(), name) != scope.callStack.end()
             || scope.callStack.size() > 16)
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
    for (std::size_t k = 0; k < args.size() && why.empty(); ++k)
        inner.locals[callee->fn.params[k].name] = offsetOf(args[k], why);
    for (std::size_t k = 0; k < rets.size() && why.empty(); ++k)
        inner.locals[callee->rets[k].name] = offsetOf(rets[k], why);
    std::size_t skip = ~std::size_t(0);
    if (in.guard >= 0) { // a guarded call: branch around the inlined body when the guard is false
        Instr bra = in;
        bra.guardNeg = !in.guardNeg;
        bra.ctrl = Ctrl::Bra;
        skip = fn_->code.size();
        pushInstr(bra, st, why);
    }
    const SourceLoc callLoc = loc_;
    const std::uint32_t callerFrame = frame_;
    fn_->frames.push_back(CallFrame{name, callerFrame, callLoc.file, callLoc.line});
    frame_ = std::uint32_t(fn_->frames.size() - 1);
    emitBody(*callee, inner);
    frame_ = callerFrame;
    loc_ = callLoc;
    const auto end = std::uint32_t(fn_->code.size());
    for (std::size_t r : inner.rets)
        fn_->code[r].target = end;
    if (skip != ~std::size_t(0))
        fn_->code[skip].target = end;
    if (!why.empty())
        markUnsupported(end ? end - 1 : 0, why);
}

std::string Parser::statementText(const Statement& st)
{
    std::string s;
    for (std::size_t i = 0; i < st.size(); ++i) {
        const std::string& t = st[i].text;
        bool glue = t == "," || t == "]" || t == "}" || t == ")" || t == "|" || t == "+"
            || (i > 0
                && (st[i - 1].text == "[" || st[i - 1].text == "{" || st[i - 1].text == "(" || st[i - 1].text == "!"
                    || st[i - 1].text == "@" || st[i - 1].text == "|" || st[i - 1].text == "+"
                    || st[i - 1].text == "-"));
        if (!s.empty() && !glue)
            s += ' ';
        s += t;
    }
    return s + ";";
}

Instr Parser::decodeStatement(const Statement& st, const std::unordered_map<std::string, std::uint32_t>& regs,
                              const std::unordered_map<std::string, std::uint64_t>& locals, const DecodeEnv& env,
                              SourceLoc loc)
{
    Instr in;
    in.line = loc.line;
    in.file = loc.file;
    std::size_t i = 0;
    if (st[0].text == "@") {
        i = 1;
        if (st[i].text == "!") {
            in.guardNeg = true;
            ++i;
        }
        auto it = regs.find(st[i].text);
        if (it == regs.end())
            fail(st[i], "unknown guard predicate");
        in.guard = static_cast<std::int32_t>(it->second);
        ++i;
    }
    const std::string opcode = st[i++].text;
    std::vector<PtxOperand> ops;
    std::string why;
    while (i < st.size() && why.empty()) {
        ops.push_back(operand(st, i, regs, locals, why));
        if (i < st.size() && st[i].text == ",")
            ++i;
    }
    if (why.empty())
        why = decodeInstr(opcode, ops, in, env);
    if (!why.empty()) {
        in.ctrl = Ctrl::Unsupported;
        in.fn = nullptr;
        lastWhy_ = why;
    }
    return in;
}

const ParamDecl* Parser::kernelParam(const std::string& name) const
{
    if (!scope_ || !scope_->kernelParams)
        return nullptr;
    for (const auto& p : *scope_->kernelParams)
        if (p.name == name)
            return &p;
    return nullptr;
}

PtxOperand Parser::operand(const Statement& st, std::size_t& i,
                           const std::unordered_map<std::string, std::uint32_t>& regs,
                           const std::unordered_map<std::string, std::uint64_t>& locals, std::string& why)
{
    PtxOperand op;
    auto regOf = [&](const Token& t) -> std::uint32_t {
        auto it = regs.find(t.text);
        if (it == regs.end()) {
            why = "unknown register " + t.text;
            return RegZero;
        }
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
            if (e.text == "+") {
                ++i;
                continue;
            }
            bool negative = false;
            if (e.text == "-") {
                negative = true;
                ++i;
            }
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
                const bool minus = st[i].text == "-" && i + 1 < st.size() && st[i + 1].kind == Token::Number;
                if (minus || st[i].kind == Token::Number) { // an immediate element: {0, %rs1}
                    if (minus)
                        ++i;
                    op.regs.push_back(RegZero);
                    op.elemImm.push_back((minus ? "-" : "") + st[i].text);
                } else if (regs.count(st[i].text)) {
                    op.regs.push_back(regs.at(st[i].text));
                    op.elemImm.emplace_back();
                } else {
                    why = why.empty() ? "unknown name " + st[i].text : why;
                }
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
        if (t.text == "-") {
            op.text = "-";
            ++i;
        }
        op.text += st[i++].text;
        return op;
    }
    if (regs.count(t.text)) {
        op.kind = PtxOperand::Kind::Reg;
        op.reg = regs.at(t.text);
        if (t.text.starts_with("%reserved_smem_offset"))
            mod_.reservedShared = Module::kReservedSharedBytes; // the window is read: give the module one
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

} // namespace ptx

std::uint64_t immediateBits(const std::string& text, PtxType type)
{
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
        if (negative)
            d = -d;
        std::uint64_t bits = 0;
        if (type == PtxType::F32) {
            const float f = static_cast<float>(d);
            std::memcpy(&bits, &f, 4);
        } else {
            std::memcpy(&bits, &d, 8);
        }
        return bits;
    }
    while (!s.empty() && (s.back() == 'U' || s.back() == 'u'))
        s.pop_back();
    return negate(std::strtoull(s.c_str(), nullptr, 10));
}

} // namespace kw::sim
