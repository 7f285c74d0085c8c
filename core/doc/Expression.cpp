#include "doc/Expression.hpp"

#include "util/Error.hpp"

#include <muParser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace kw {

namespace {

// Shift counts beyond +-4096 already give 0 or infinity; clamped, they never overflow int.
int shiftCount(double b) { return std::isnan(b) ? 0 : int(std::clamp(std::trunc(b), -4096.0, 4096.0)); }
double shiftLeft(double a, double b) { return std::ldexp(std::trunc(a), shiftCount(b)); }
double shiftRight(double a, double b) { return std::floor(std::ldexp(std::trunc(a), -shiftCount(b))); }
double modulo(double a, double b) { return std::fmod(a, b); }
double floorOf(double a) { return std::floor(a); }
double ceilOf(double a) { return std::ceil(a); }
double truncOf(double a) { return std::trunc(a); }
double ceilDiv(double a, double b) { return std::ceil(a / b); }

} // namespace

struct Expression::Impl {
    mu::Parser parser;
    mutable bool compiled = false;
};

Expression::Expression(std::string text, std::string field)
    : text_(std::move(text))
    , field_(std::move(field))
    , impl_(std::make_unique<Impl>())
{
    auto& p = impl_->parser;
    // Shifts bind looser than + and -, as in C (at muparser's comparison level).
    p.DefineOprt("<<", shiftLeft, mu::prCMP, mu::oaLEFT, true);
    p.DefineOprt(">>", shiftRight, mu::prCMP, mu::oaLEFT, true);
    p.DefineOprt("%", modulo, mu::prMUL_DIV, mu::oaLEFT, true);
    p.DefineFun("floor", floorOf);
    p.DefineFun("ceil", ceilOf);
    p.DefineFun("trunc", truncOf);
    p.DefineFun("cdiv", ceilDiv);
    try {
        p.SetExpr(text_);
    } catch (const mu::ParserError& e) {
        fail(e.GetMsg());
    }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

void Expression::fail(const std::string& why) const { throw Error(ErrorCategory::Expression, field_ + ": " + why); }

void Expression::defineConstant(const std::string& name, double value)
{
    try {
        impl_->parser.DefineConst(name, value);
    } catch (const mu::ParserError& e) {
        fail("cannot define \"" + name + "\": " + e.GetMsg());
    }
    impl_->compiled = false;
}

void Expression::bindVariable(const std::string& name, const double* value)
{
    try {
        // muparser only reads through the pointer.
        impl_->parser.DefineVar(name, const_cast<double*>(value));
    } catch (const mu::ParserError& e) {
        fail("cannot define \"" + name + "\": " + e.GetMsg());
    }
    impl_->compiled = false;
}

void Expression::bindFunction(const std::string& name, Function fn, void* userData)
{
    try {
        impl_->parser.DefineFunUserData(name, fn, userData, false);
    } catch (const mu::ParserError& e) {
        fail("cannot define \"" + name + "\": " + e.GetMsg());
    }
    impl_->compiled = false;
}

std::vector<std::string> Expression::usedNames() const
{
    std::vector<std::string> names;
    try {
        for (const auto& [name, ptr] : impl_->parser.GetUsedVar())
            names.push_back(name);
    } catch (const mu::ParserError& e) {
        fail(e.GetMsg() + " in \"" + text_ + "\"");
    }
    return names;
}

void Expression::compile() const
{
    if (impl_->compiled)
        return;
    const auto& known = impl_->parser.GetVar();
    for (const std::string& name : usedNames())
        if (!known.count(name))
            fail("unknown name \"" + name + "\" in \"" + text_ + "\"");
    impl_->compiled = true;
}

double Expression::evaluate() const
{
    compile();
    try {
        int results = 0;
        const double* v = impl_->parser.Eval(results);
        if (results != 1)
            fail("\"" + text_ + "\" gives " + std::to_string(results) + " values; expected one");
        return v[0];
    } catch (const mu::ParserError& e) {
        fail(e.GetMsg() + " in \"" + text_ + "\"");
    }
}

std::int64_t Expression::evaluateInteger() const
{
    const double v = evaluate();
    if (!std::isfinite(v) || v != std::floor(v))
        fail("\"" + text_ + "\" is not an integer (" + formatNumber(v) + ")"
             + (std::isfinite(v) && text_.find('/') != std::string::npos
                    ? "; / divides exactly here: use cdiv(a, b) to round up or floor(a / b) to round down"
                    : ""));
    if (std::fabs(v) >= 9223372036854775808.0)
        fail("\"" + text_ + "\" is too large (" + formatNumber(v) + ")");
    return static_cast<std::int64_t>(v);
}

std::string formatNumber(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        return fmt::format("{}", static_cast<long long>(v));
    // Six significant digits tell apart the values people type (-1.125 is not -1.12)...
    const std::string s = fmt::format("{:.6g}", v);
    // ...but a fraction must never read as a whole number: 2.0000001 is not "2".
    if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos)
        return numberText(v);
    return s;
}

std::string numberText(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
        return std::to_string(static_cast<long long>(v));
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

} // namespace kw
