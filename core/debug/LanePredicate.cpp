#include "debug/LanePredicate.hpp"

#include "debug/LaneExpression.hpp"
#include "debug/RegisterValue.hpp"
#include "debug/SourceValue.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kw::debug {

using namespace kw::sim;

// Recursive descent over the text; any construct outside the simple form fails, and
// the caller falls back to the general evaluator.
class LanePredicateParser {
public:
    LanePredicateParser(const std::string& text, const Function& fn, std::uint32_t pc, const SourceVariables* sources,
                        std::vector<VisibleVariable>& places)
        : s_(text)
        , fn_(fn)
        , pc_(pc)
        , sources_(sources)
        , places_(places)
    {
    }

    bool parse(std::vector<LanePredicate::Node>& out)
    {
        if (!disjunction(out))
            return false;
        skip();
        return i_ == s_.size() && !out.empty();
    }

private:
    const std::string& s_;
    const Function& fn_;
    std::uint32_t pc_;
    const SourceVariables* sources_;
    std::vector<VisibleVariable>& places_;
    std::size_t i_ = 0;
    using Op = LanePredicate::Op;
    using Operand = LanePredicate::Operand;

    void skip()
    {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
            ++i_;
    }
    bool take(const char* token)
    {
        skip();
        const std::size_t n = std::char_traits<char>::length(token);
        if (s_.compare(i_, n, token) != 0)
            return false;
        i_ += n;
        return true;
    }
    static bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
    std::string word(std::size_t from)
    {
        std::size_t j = from;
        while (j < s_.size() && nameChar(s_[j]))
            ++j;
        return s_.substr(from, j - from);
    }

    bool disjunction(std::vector<LanePredicate::Node>& out)
    {
        if (!conjunction(out))
            return false;
        while (take("||")) {
            if (!conjunction(out))
                return false;
            out.push_back({Op::Or, {}, {}});
        }
        return true;
    }
    bool conjunction(std::vector<LanePredicate::Node>& out)
    {
        if (!atom(out))
            return false;
        while (take("&&")) {
            if (!atom(out))
                return false;
            out.push_back({Op::And, {}, {}});
        }
        return true;
    }
    bool atom(std::vector<LanePredicate::Node>& out)
    {
        if (take("("))
            return disjunction(out) && take(")");
        LanePredicate::Node n;
        if (!operand(n.a))
            return false;
        // Two-character operators first.
        static const std::pair<const char*, Op> ops[]
            = {{"==", Op::Eq}, {"!=", Op::Ne}, {"<=", Op::Le}, {">=", Op::Ge}, {"<", Op::Lt}, {">", Op::Gt}};
        bool found = false;
        for (const auto& [text, op] : ops)
            if (take(text)) {
                n.op = op;
                found = true;
                break;
            }
        if (!found || !operand(n.b))
            return false;
        out.push_back(n);
        return true;
    }
    bool operand(Operand& o)
    {
        skip();
        if (i_ >= s_.size())
            return false;
        const char c = s_[i_];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-') {
            // A number, possibly negated; "<<" and the like never start here.
            const char* begin = s_.c_str() + i_;
            char* end = nullptr;
            const double v = std::strtod(begin, &end);
            if (end == begin || (end > begin && (nameChar(*end) || *end == '.')))
                return false; // 0x.., 1e, names glued to digits: the general evaluator decides
            // strtod reads "inf", "nan" and hexadecimal, which muparser does not.
            for (const char* p = begin; p < end; ++p)
                if (!(std::isdigit(static_cast<unsigned char>(*p)) || *p == '.' || *p == '-' || *p == '+' || *p == 'e'
                      || *p == 'E'))
                    return false;
            o.kind = Operand::Kind::Number;
            o.number = v;
            i_ += std::size_t(end - begin);
            return true;
        }
        if (c == '%') {
            const std::string first = word(i_ + 1);
            if (first.empty())
                return false;
            std::size_t j = i_ + 1 + first.size();
            std::string longer;
            if (j + 1 < s_.size() && s_[j] == '.' && std::isalpha(static_cast<unsigned char>(s_[j + 1])))
                longer = "%" + first + "." + word(j + 1);
            for (const std::string& name : {longer, "%" + first}) {
                if (name.empty())
                    continue;
                if (const auto reg = LaneExpression::findRegister(fn_, name, pc_)) {
                    o.kind = Operand::Kind::Register;
                    o.index = *reg;
                    o.type = fn_.registerType(*reg);
                    i_ += name.size();
                    return true;
                }
            }
            return false;
        }
        if (!std::isalpha(static_cast<unsigned char>(c)))
            return false;
        const std::string name = word(i_);
        std::size_t j = i_ + name.size();
        if (name == "lane" || name == "warp") {
            o.kind = name == "lane" ? Operand::Kind::Lane : Operand::Kind::Warp;
            i_ = j;
            return true;
        }
        static const std::pair<const char*, std::uint32_t> builtins[]
            = {{"threadIdx", RegTidX}, {"blockIdx", RegCtaidX}, {"blockDim", RegNtidX}, {"gridDim", RegNctaidX}};
        for (const auto& [text, first] : builtins) {
            if (name != text || j + 1 >= s_.size() || s_[j] != '.')
                continue;
            const char axis = s_[j + 1];
            if ((axis != 'x' && axis != 'y' && axis != 'z') || (j + 2 < s_.size() && nameChar(s_[j + 2])))
                return false;
            o.kind = Operand::Kind::Special;
            o.index = first + std::uint32_t(axis - 'x');
            i_ = j + 2;
            return true;
        }
        return source(name, o);
    }
    // A source variable's scalar by NAME or NAME@LINE, placed at the pc as LaneExpression
    // places it; anything else (a buffer's element, a function, a constant of muparser's,
    // an array, a struct) is left to the general evaluator.
    bool source(std::string name, Operand& o)
    {
        if (!sources_)
            return false;
        std::size_t j = i_ + name.size();
        if (j + 1 < s_.size() && s_[j] == '@' && std::isdigit(static_cast<unsigned char>(s_[j + 1]))) {
            ++j;
            while (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j])))
                ++j;
            name = s_.substr(i_, j - i_);
        }
        std::optional<VisibleVariable> v = sources_->find(name, pc_);
        if (!v || !isSourceNumber(v->type().kind, v->type().size))
            return false;
        o.sourceKind = v->type().kind;
        o.sourceSize = v->type().size;
        switch (v->where) {
        case VisibleVariable::Where::Register:
            o.kind = Operand::Kind::SourceRegister;
            o.index = v->reg;
            break;
        case VisibleVariable::Where::Local:
        case VisibleVariable::Where::Shared:
        case VisibleVariable::Where::Global:
            o.kind = Operand::Kind::SourceMemory;
            o.index = std::uint32_t(places_.size());
            places_.push_back(std::move(*v));
            break;
        default: return false;
        }
        i_ = j;
        return true;
    }
};

std::optional<LanePredicate> LanePredicate::compile(const std::string& text, const Function& fn, std::uint32_t pc,
                                                    const SourceVariables* sources)
{
    LanePredicate p;
    LanePredicateParser parser(text, fn, pc, sources, p.places_);
    if (!parser.parse(p.program_))
        return std::nullopt;
    std::size_t depth = 0, deepest = 0;
    for (const Node& n : p.program_) {
        depth = n.op == Op::And || n.op == Op::Or ? depth - 1 : depth + 1;
        deepest = std::max(deepest, depth);
    }
    if (deepest > kDepth)
        return std::nullopt;
    return p;
}

namespace {

// Every lane's value, whether `lanes` holds it or not: a loop without branches, which the
// compiler vectorizes; the lanes outside are masked out after the comparison. (Each lane
// has its registers, so reading them all is safe.)
template <class F> void allLanes(double* out, F value)
{
    for (int l = 0; l < 32; ++l)
        out[l] = value(l);
}

// A source variable's bits in all lanes (`bits(lane, size)`), read as its DWARF type
// (sourceNumber); the common shapes with their kind and size known to the compiler.
template <class Bits> void sourceLanes(dwarf::SourceType::Kind kind, std::uint32_t size, Bits bits, double* out)
{
    using K = dwarf::SourceType::Kind;
    auto as = [&bits, out](auto k, auto bytes) {
        allLanes(out, [&bits, bytes](int l) {
            return sourceNumber(decltype(k)::value, decltype(bytes)::value, bits(l, bytes));
        });
    };
    if (kind == K::Signed && size == 4)
        as(std::integral_constant<K, K::Signed>{}, std::integral_constant<std::uint32_t, 4>{});
    else if (kind == K::Unsigned && size == 4)
        as(std::integral_constant<K, K::Unsigned>{}, std::integral_constant<std::uint32_t, 4>{});
    else if (kind == K::Float && size == 4)
        as(std::integral_constant<K, K::Float>{}, std::integral_constant<std::uint32_t, 4>{});
    else if (kind == K::Float && size == 8)
        as(std::integral_constant<K, K::Float>{}, std::integral_constant<std::uint32_t, 8>{});
    else if (kind == K::Signed && size == 8)
        as(std::integral_constant<K, K::Signed>{}, std::integral_constant<std::uint32_t, 8>{});
    else
        allLanes(out, [&](int l) { return sourceNumber(kind, size, bits(l, size)); });
}

} // namespace

bool LanePredicate::load(const Operand& o, const Warp& w, std::uint32_t lanes, double* out) const
{
    const std::uint64_t* r = o.kind == Operand::Kind::SourceMemory ? nullptr : w.reg(o.index);
    switch (o.kind) {
    case Operand::Kind::Number: allLanes(out, [&](int) { return o.number; }); break;
    case Operand::Kind::Special: allLanes(out, [r](int l) { return double(r[l]); }); break;
    case Operand::Kind::Register: allLanes(out, [&](int l) { return registerNumber(o.type, r[l]); }); break;
    case Operand::Kind::Lane: allLanes(out, [](int l) { return double(l); }); break;
    case Operand::Kind::Warp: allLanes(out, [&](int) { return double(w.warpId); }); break;
    case Operand::Kind::SourceRegister:
        sourceLanes(
            o.sourceKind, o.sourceSize, [r](int l, std::uint32_t) { return r[l]; }, out);
        break;
    case Operand::Kind::SourceMemory: {
        const VisibleVariable& v = places_[o.index];
        // -G keeps variables in each lane's local frame: the same offset in all 32 frames
        // (each lane has one), so all lanes are read at once, as registers are.
        if (v.where == VisibleVariable::Where::Local && v.address + o.sourceSize <= w.localBytes) {
            const std::uint8_t* at = w.local + v.address;
            const std::size_t stride = w.localBytes;
            sourceLanes(
                o.sourceKind, o.sourceSize,
                [at, stride](int l, auto bytes) { // bytes: a constant in the common shapes
                    std::uint64_t bits = 0;
                    std::memcpy(&bits, at + std::size_t(l) * stride, std::size_t(bytes));
                    return bits;
                },
                out);
            break;
        }
        // Memory only of the lanes asked for: another lane's may lie outside it.
        allLanes(out, [](int) { return 0.0; });
        for (std::uint32_t m = lanes; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            const std::uint8_t* at = sourceBytes(places_[o.index], w, l, 0, o.sourceSize);
            if (!at)
                return false;
            std::uint64_t bits = 0;
            std::memcpy(&bits, at, o.sourceSize);
            out[l] = sourceNumber(o.sourceKind, o.sourceSize, bits);
        }
        break;
    }
    }
    return true;
}

std::optional<std::uint32_t> LanePredicate::compare(const Node& n, const Warp& w, std::uint32_t lanes) const
{
    double a[32], b[32];
    if (!load(n.a, w, lanes, a))
        return std::nullopt;
    // A number on the right (the common `i > 1000`) is compared as it is, not spread over 32 lanes.
    const bool constant = n.b.kind == Operand::Kind::Number;
    if (!constant && !load(n.b, w, lanes, b))
        return std::nullopt;
    const double k = n.b.number;
    std::uint32_t out = 0;
    auto each = [&](auto holds) {
#if defined(__SSE2__)
        // Two lanes per comparison (GCC's and Clang's vector operators, with C++'s answers
        // for NaN) and their bits by movemask: a scalar loop shifting each lane's bit into
        // place is one long chain of dependent steps, several times slower.
        const __m128d kk = _mm_set1_pd(k);
        for (int l = 0; l < 32; l += 2) {
            const __m128d y = constant ? kk : _mm_loadu_pd(b + l);
            out |= std::uint32_t(_mm_movemask_pd((__m128d)holds(_mm_loadu_pd(a + l), y))) << l;
        }
#else
        for (int l = 0; l < 32; ++l)
            out |= std::uint32_t(holds(a[l], constant ? k : b[l])) << l;
#endif
    };
    switch (n.op) {
    case Op::Eq: each([](auto x, auto y) { return x == y; }); break;
    case Op::Ne: each([](auto x, auto y) { return x != y; }); break;
    case Op::Lt: each([](auto x, auto y) { return x < y; }); break;
    case Op::Le: each([](auto x, auto y) { return x <= y; }); break;
    case Op::Gt: each([](auto x, auto y) { return x > y; }); break;
    case Op::Ge: each([](auto x, auto y) { return x >= y; }); break;
    default: break;
    }
    return out & lanes;
}

std::optional<std::uint32_t> LanePredicate::holds(const Warp& w, std::uint32_t lanes) const
{
    std::uint32_t stack[kDepth];
    std::size_t top = 0;
    for (const Node& n : program_) {
        if (n.op == Op::And || n.op == Op::Or) {
            const std::uint32_t b = stack[--top], a = stack[--top];
            stack[top++] = n.op == Op::And ? a & b : a | b;
        } else if (const auto held = compare(n, w, lanes))
            stack[top++] = *held;
        else
            return std::nullopt;
    }
    return top ? stack[top - 1] & lanes : 0;
}

} // namespace kw::debug
