#include "debug/LaneExpression.hpp"

#include "debug/RegisterValue.hpp"
#include "debug/SourceValue.hpp"
#include "sim/InstrRegisters.hpp"
#include "sim/Warp.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace kw::debug {

using namespace kw::sim;

namespace {

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "blockIdx.x" -> "blockIdx_x" for muparser, which has no '.' in names; a register's
// "%r5" or "%tid.x" -> "R_r5" / "R_tid_x". A '%' not followed by a register's name is
// the remainder operator.
struct Rewritten {
    std::string text;
    std::vector<std::pair<std::string, std::string>> registers;   // (muparser name, PTX name)
    std::vector<std::pair<std::string, VisibleVariable>> sources; // (muparser name, the variable)
};

bool isBuffer(const std::vector<BufferArg>& buffers, const std::string& name)
{
    return std::any_of(buffers.begin(), buffers.end(), [&](const BufferArg& b) { return b.name == name; });
}

// A source variable's name at in[i..j) (NAME or NAME@LINE), its muparser name when it is one.
std::optional<std::string> sourceName(const std::string& in, std::size_t i, std::size_t& j,
                                      const SourceVariables* sources, std::uint32_t pc,
                                      const std::vector<BufferArg>& buffers, Rewritten& r)
{
    std::string name = in.substr(i, j - i);
    std::size_t end = j;
    if (end + 1 < in.size() && in[end] == '@' && std::isdigit(static_cast<unsigned char>(in[end + 1]))) {
        ++end;
        while (end < in.size() && std::isdigit(static_cast<unsigned char>(in[end])))
            ++end;
        name = in.substr(i, end - i);
    }
    // NAME.x.y: a struct's members.
    while (end + 1 < in.size() && in[end] == '.'
           && (std::isalpha(static_cast<unsigned char>(in[end + 1])) || in[end + 1] == '_')) {
        ++end;
        while (end < in.size() && nameChar(in[end]))
            ++end;
        name = in.substr(i, end - i);
    }
    if (!sources || name == "lane" || name == "warp")
        return std::nullopt;
    std::size_t after = end;
    while (after < in.size() && in[after] == ' ')
        ++after;
    const bool call = after < in.size() && in[after] == '(';
    if (call && isBuffer(buffers, name))
        return std::nullopt; // a document buffer's element
    std::optional<VisibleVariable> v = sources->find(name, pc);
    if (!v) {
        if (end != j)
            throw Error(ErrorCategory::Usage,
                        name.find('.') != std::string::npos ? fmt::format("no variable or member {} here", name)
                                                            : fmt::format("no variable {} here", name));
        return std::nullopt;
    }
    const bool array = v->type().kind == dwarf::SourceType::Kind::Array;
    // An array named alone, as the whole expression: its elements are shown.
    const bool whole = array && !call && in.find_first_not_of(' ') == i && in.find_last_not_of(' ') + 1 == end;
    if (array != call && !whole)
        return std::nullopt; // a function of the same name, or an array without its index: refused later
    if (v->where == VisibleVariable::Where::Nowhere)
        throw Error(ErrorCategory::Usage, fmt::format("{}: {}", name, v->why));
    j = end;
    const std::string var = fmt::format("{}_{}", array && !whole ? "A" : "S", r.sources.size());
    r.sources.emplace_back(var, std::move(*v));
    return var;
}

Rewritten rewrite(const std::string& in, const Function& fn, std::uint32_t pc, const SourceVariables* sources,
                  const std::vector<BufferArg>& buffers)
{
    Rewritten r;
    for (std::size_t i = 0; i < in.size();) {
        if (in[i] == '%' && i + 1 < in.size()
            && (std::isalpha(static_cast<unsigned char>(in[i + 1])) || in[i + 1] == '_')) {
            std::size_t j = i + 1;
            while (j < in.size() && nameChar(in[j]))
                ++j;
            std::size_t k = j;
            if (k + 1 < in.size() && in[k] == '.' && std::isalpha(static_cast<unsigned char>(in[k + 1]))) {
                k += 1;
                while (k < in.size() && nameChar(in[k]))
                    ++k;
            }
            // The longest name that is a register: "%tid.x" before "%tid".
            for (const std::size_t end : {k, j}) {
                const std::string name = in.substr(i, end - i);
                if (LaneExpression::findRegister(fn, name, pc)) {
                    std::string var = "R_" + name.substr(1);
                    for (char& c : var)
                        if (c == '.')
                            c = '_';
                    r.registers.emplace_back(var, name);
                    r.text += var;
                    i = end;
                    goto next;
                }
            }
            r.text += in[i++];
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(in[i])) && (i == 0 || !nameChar(in[i - 1]))) {
            std::size_t j = i;
            while (j < in.size() && nameChar(in[j]))
                ++j;
            const std::string word = in.substr(i, j - i);
            if ((word == "threadIdx" || word == "blockIdx" || word == "blockDim" || word == "gridDim")
                && j + 1 < in.size() && in[j] == '.' && (in[j + 1] == 'x' || in[j + 1] == 'y' || in[j + 1] == 'z')
                && (j + 2 >= in.size() || !nameChar(in[j + 2]))) {
                r.text += word + "_" + in[j + 1];
                i = j + 2;
            } else if (const auto var = sourceName(in, i, j, sources, pc, buffers, r)) {
                r.text += *var;
                i = j;
            } else {
                r.text += word;
                i = j;
            }
            continue;
        }
        r.text += in[i++];
    next:;
    }
    return r;
}

} // namespace

std::optional<std::uint32_t> LaneExpression::findRegister(const Function& fn, const std::string& name, std::uint32_t pc)
{
    std::vector<std::uint32_t> found;
    for (std::uint32_t i = 0; i < fn.regNames.size(); ++i)
        if (fn.regNames[i] == name)
            found.push_back(i);
    if (found.empty())
        return std::nullopt;
    if (found.size() == 1 || pc >= fn.code.size())
        return found.front();
    // One name, several registers (a device function inlined at several calls): the one
    // an instruction of the innermost frame around pc names.
    for (const CallFrame* frame : fn.callStack(pc)) {
        const auto f = std::uint32_t(frame - fn.frames.data());
        for (std::uint32_t p = 0; p < fn.code.size(); ++p) {
            if (fn.frame[p] != f)
                continue;
            std::optional<std::uint32_t> hit;
            forInstrRegisters(fn, fn.code[p], [&](std::uint32_t reg) {
                for (std::uint32_t c : found)
                    if (c == reg)
                        hit = c;
            });
            if (hit)
                return hit;
        }
    }
    return found.front();
}

LaneExpression::LaneExpression(const std::string& text, const Function& fn, std::uint32_t pc,
                               const std::vector<BufferArg>& buffers, const SourceVariables* sources)
    : text_(text)
    , fn_(fn)
{
    const Rewritten r = rewrite(text, fn, pc, sources, buffers);
    expr_ = std::make_unique<Expression>(r.text, "expression");
    // Every name the text uses is bound; an unknown one is refused by compile() below.
    static const char* axes = "xyz";
    for (int c = 0; c < 3; ++c) {
        const std::pair<const char*, Bound::Kind> builtins[] = {{"threadIdx_", Bound::Kind::ThreadIdx},
                                                                {"blockIdx_", Bound::Kind::BlockIdx},
                                                                {"blockDim_", Bound::Kind::BlockDim},
                                                                {"gridDim_", Bound::Kind::GridDim}};
        for (const auto& [prefix, kind] : builtins) {
            bound_.push_back({kind, std::uint32_t(c)});
            expr_->bindVariable(std::string(prefix) + axes[c], bound_.back().values);
        }
    }
    bound_.push_back({Bound::Kind::Lane});
    expr_->bindVariable("lane", bound_.back().values);
    bound_.push_back({Bound::Kind::Warp});
    expr_->bindVariable("warp", bound_.back().values);
    for (const auto& [var, name] : r.registers) {
        const std::uint32_t index = *findRegister(fn, name, pc);
        bound_.push_back({Bound::Kind::Register, index, fn.registerType(index)});
        expr_->bindVariable(var, bound_.back().values);
        if (r.registers.size() == 1 && text.find_first_not_of(' ') == text.find(name)
            && text.find_last_not_of(' ') + 1 == text.find(name) + name.size())
            single_ = index;
    }
    for (const auto& [var, v] : r.sources) {
        sources_.push_back({v, this});
        if (var[0] == 'A') {
            expr_->bindFunction(var, &LaneExpression::readSourceElement, &sources_.back());
            continue;
        }
        bound_.push_back({Bound::Kind::Source, std::uint32_t(sources_.size() - 1)});
        expr_->bindVariable(var, bound_.back().values);
        if (r.sources.size() == 1 && r.registers.empty() && text.find_first_not_of(' ') == text.find(v.name)
            && text.find_last_not_of(' ') + 1 == text.find(v.name) + v.name.size())
            singleSource_ = sources_.size() - 1;
    }
    for (const BufferArg& b : buffers) {
        reads_.push_back({&b, b.name});
        expr_->bindFunction(b.name, &LaneExpression::readElement, &reads_.back());
    }
    try {
        expr_->compile();
        const auto used = expr_->usedNames();
        // Only the names the text uses are read at each evaluation.
        std::size_t k = 0;
        for (int c = 0; c < 3; ++c)
            for (const char* prefix : {"threadIdx_", "blockIdx_", "blockDim_", "gridDim_"})
                bound_[k++].used = std::find(used.begin(), used.end(), std::string(prefix) + axes[c]) != used.end();
        bound_[k++].used = std::find(used.begin(), used.end(), "lane") != used.end();
        bound_[k++].used = std::find(used.begin(), used.end(), "warp") != used.end();
    } catch (const Error& e) {
        throw Error(ErrorCategory::Usage,
                    fmt::format("{} (names: the source's variables where the kernel is compiled with -G, "
                                "threadIdx.x, blockIdx.x, lane, warp, PTX registers such as %r1, buffer "
                                "elements such as out(i))",
                                e.what()));
    }
    predicate_ = LanePredicate::compile(text, fn, pc, sources);
}

LaneExpression::~LaneExpression() = default;

double LaneExpression::readElement(void* read, double index)
{
    const auto* r = static_cast<const BufferRead*>(read);
    if (!(index >= 0) || index != std::floor(index) || index >= double(r->buffer->data.count()))
        throw Error(ErrorCategory::Usage,
                    fmt::format("{}({}): outside the buffer of {} elements", r->name, formatNumber(index),
                                r->buffer->data.count()));
    return r->buffer->data.at(std::size_t(index));
}

double LaneExpression::readSourceElement(void* read, double index)
{
    const auto* s = static_cast<const SourceRead*>(read);
    return sourceElement(s->variable, *s->owner->warp_, s->owner->lane_, index).number;
}

LaneValue LaneExpression::sourceValueOf(const Warp& w, int lane) const
{
    const VisibleVariable& v = sources_.at(*singleSource_).variable;
    const auto kind = v.type().kind;
    if (kind == dwarf::SourceType::Kind::Struct || kind == dwarf::SourceType::Kind::Array) {
        if (v.where == VisibleVariable::Where::Nowhere)
            throw Error(ErrorCategory::Usage, fmt::format("{}: {}", v.name, v.why));
        return {true, 0, sourceText(v, w, lane)}; // its members or elements, no single number
    }
    return sourceValue(v, w, lane);
}

void LaneExpression::fill(const Warp& w, const int* lanes, int n) const
{
    for (Bound& b : const_cast<std::deque<Bound>&>(bound_)) {
        if (!b.used)
            continue;
        for (int i = 0; i < n; ++i) {
            const int lane = lanes[i];
            double& v = b.values[i];
            switch (b.kind) {
            case Bound::Kind::Register: v = registerNumber(b.type, w.reg(b.index)[lane]); break;
            case Bound::Kind::ThreadIdx: v = double(w.R[(RegTidX + b.index) * 32 + lane]); break;
            case Bound::Kind::BlockIdx: v = double(w.R[(RegCtaidX + b.index) * 32 + lane]); break;
            case Bound::Kind::BlockDim: v = double(w.R[(RegNtidX + b.index) * 32 + lane]); break;
            case Bound::Kind::GridDim: v = double(w.R[(RegNctaidX + b.index) * 32 + lane]); break;
            case Bound::Kind::Source: v = sourceValue(sources_[b.index].variable, w, lane).number; break;
            case Bound::Kind::Lane: v = lane; break;
            case Bound::Kind::Warp: v = w.warpId; break;
            }
        }
    }
}

double LaneExpression::evaluate(const Warp& w, int lane) const
{
    warp_ = &w;
    lane_ = lane;
    fill(w, &lane, 1);
    return expr_->evaluate();
}

int LaneExpression::firstTrue(const Warp& w, std::uint32_t lanes) const
{
    if (predicate_)
        if (const auto held = predicate_->holds(w, lanes))
            return *held ? __builtin_ctz(*held) : -1;
    // Lane by lane: muparser's bulk mode hands each call to OpenMP threads, which costs
    // more than the 32 evaluations it saves.
    for (std::uint32_t m = lanes; m; m &= m - 1) {
        const int lane = __builtin_ctz(m);
        if (evaluate(w, lane) != 0)
            return lane;
    }
    return -1;
}

} // namespace kw::debug
