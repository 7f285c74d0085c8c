#include "export/ExpressionTranslation.hpp"

#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace kw::exporting {

namespace {

// One-argument functions: muparser's own and the workbench's additions. The Python
// names are the prelude's (math's, made total: NaN or infinity instead of an exception).
// muparser's log2 is log(x) / log(2) and its rint floor(x + 0.5): so are the translations.
const std::map<std::string, std::pair<std::string, std::string>>& unaryFunctions()
{
    static const std::map<std::string, std::pair<std::string, std::string>> f = {
        {"sin", {"_f_sin", "std::sin"}},       {"cos", {"_f_cos", "std::cos"}},
        {"tan", {"_f_tan", "std::tan"}},       {"asin", {"_f_asin", "std::asin"}},
        {"acos", {"_f_acos", "std::acos"}},    {"atan", {"_f_atan", "std::atan"}},
        {"sinh", {"_f_sinh", "std::sinh"}},    {"cosh", {"_f_cosh", "std::cosh"}},
        {"tanh", {"_f_tanh", "std::tanh"}},    {"asinh", {"_f_asinh", "std::asinh"}},
        {"acosh", {"_f_acosh", "std::acosh"}}, {"atanh", {"_f_atanh", "std::atanh"}},
        {"log2", {"_f_log2", "kw_log2"}},      {"log10", {"_f_log10", "std::log10"}},
        {"log", {"_f_log", "std::log"}},       {"ln", {"_f_log", "std::log"}},
        {"exp", {"_f_exp", "std::exp"}},       {"sqrt", {"_f_sqrt", "std::sqrt"}},
        {"sign", {"_f_sign", "kw_sign"}},      {"rint", {"_f_rint", "kw_rint"}},
        {"abs", {"_f_abs", "std::fabs"}},      {"floor", {"_f_floor", "std::floor"}},
        {"ceil", {"_f_ceil", "std::ceil"}},    {"trunc", {"_f_trunc", "std::trunc"}},
    };
    return f;
}

// Functions of several arguments.
const std::map<std::string, std::pair<std::string, std::string>>& listFunctions()
{
    static const std::map<std::string, std::pair<std::string, std::string>> f = {
        {"min", {"_f_min", "kw_min"}}, {"max", {"_f_max", "kw_max"}},    {"sum", {"_f_sum", "kw_sum"}},
        {"avg", {"_f_avg", "kw_avg"}}, {"cdiv", {"_f_cdiv", "kw_cdiv"}},
    };
    return f;
}

} // namespace

ExpressionTranslation::ExpressionTranslation(Language language, NameCode name, CallCode call)
    : language_(language)
    , name_(std::move(name))
    , call_(std::move(call))
{
}

bool ExpressionTranslation::isBuiltinFunction(const std::string& name)
{
    return unaryFunctions().count(name) || listFunctions().count(name);
}

std::string ExpressionTranslation::literal(Language language, double v)
{
    const bool py = language == Language::Python;
    if (std::isnan(v))
        return py ? "math.nan" : "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v))
        return std::string(v < 0 ? "-" : "") + (py ? "math.inf" : "std::numeric_limits<double>::infinity()");
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
    return v < 0 ? "(" + s + ")" : s;
}

std::string ExpressionTranslation::code(const std::string& text, const std::string& field) const
{
    const ExpressionTree tree(text, field);
    return code(tree.root(), field);
}

std::string ExpressionTranslation::code(const ExpressionNode& n, const std::string& field) const
{
    const bool py = language_ == Language::Python;
    const auto fail
        = [&](const std::string& why) -> std::string { throw Error(ErrorCategory::Expression, field + ": " + why); };
    const auto kid = [&](std::size_t i) { return code(*n.children[i], field); };
    switch (n.kind) {
    case ExpressionNode::Kind::Number: {
        double v = 0;
        const auto r = std::from_chars(n.text.data(), n.text.data() + n.text.size(), v);
        if (r.ec != std::errc() || r.ptr != n.text.data() + n.text.size())
            return fail("\"" + n.text + "\" is not a number");
        return literal(language_, v);
    }
    case ExpressionNode::Kind::Name: {
        if (auto c = name_(n.text))
            return *c;
        if (n.text == "_pi" || n.text == "_e") // muparser's own values (its _pi is not M_PI)
            return literal(language_, Expression(n.text, field).evaluate());
        return fail("the name \"" + n.text + "\" has no value in the exported program");
    }
    case ExpressionNode::Kind::Call: {
        std::vector<std::string> args;
        for (std::size_t i = 0; i < n.children.size(); ++i)
            args.push_back(kid(i));
        if (args.size() == 1)
            if (auto c = call_(n.text, args[0]))
                return *c;
        std::string joined;
        for (const auto& a : args)
            joined += (joined.empty() ? "" : ", ") + a;
        if (const auto u = unaryFunctions().find(n.text); u != unaryFunctions().end() && args.size() == 1)
            return (py ? u->second.first : u->second.second) + "(" + joined + ")";
        if (const auto l = listFunctions().find(n.text); l != listFunctions().end() && !args.empty())
            return (py ? l->second.first : l->second.second) + "(" + joined + ")";
        return fail("the function \"" + n.text + "\" has no translation in the exported program");
    }
    case ExpressionNode::Kind::Unary: return "(-" + kid(0) + ")";
    case ExpressionNode::Kind::Ternary:
        return py ? "(" + kid(1) + " if " + kid(0) + " != 0 else " + kid(2) + ")"
                  : "((" + kid(0) + ") != 0 ? " + kid(1) + " : " + kid(2) + ")";
    case ExpressionNode::Kind::Binary: break;
    }
    const std::string a = kid(0), b = kid(1);
    const std::string& op = n.text;
    if (op == "+" || op == "-" || op == "*")
        return "(" + a + " " + op + " " + b + ")";
    if (op == "/")
        return py ? "_div(" + a + ", " + b + ")" : "(" + a + " / " + b + ")";
    if (op == "%")
        return (py ? "_fmod(" : "std::fmod(") + a + ", " + b + ")";
    if (op == "^")
        return (py ? "_pow(" : "std::pow(") + a + ", " + b + ")";
    if (op == "<<")
        return (py ? "_shl(" : "kw_shl(") + a + ", " + b + ")";
    if (op == ">>")
        return (py ? "_shr(" : "kw_shr(") + a + ", " + b + ")";
    if (op == "&&" || op == "||") {
        const std::string pyOp = op == "&&" ? " and " : " or ";
        return py ? "float(" + a + " != 0" + pyOp + b + " != 0)"
                  : "((" + a + " != 0 " + op + " " + b + " != 0) ? 1.0 : 0.0)";
    }
    return py ? "float(" + a + " " + op + " " + b + ")" : "((" + a + " " + op + " " + b + ") ? 1.0 : 0.0)";
}

} // namespace kw::exporting
