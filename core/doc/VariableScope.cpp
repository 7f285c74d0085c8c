#include "doc/VariableScope.hpp"

#include "util/Error.hpp"

#include <cctype>

namespace kw {

VariableScope VariableScope::evaluate(const std::vector<std::pair<std::string, std::string>>& variables)
{
    VariableScope scope;
    for (std::size_t i = 0; i < variables.size(); ++i) {
        const auto& [name, text] = variables[i];
        const std::string field = "variables[" + std::to_string(i) + "] (" + name + ")";
        scope.set(name, scope.evaluate(text, field));
    }
    return scope;
}

void VariableScope::set(const std::string& name, double value)
{
    for (auto& [n, v] : values_)
        if (n == name) {
            v = value;
            return;
        }
    values_.emplace_back(name, value);
}

bool VariableScope::contains(const std::string& name) const { return value(name).has_value(); }

std::optional<double> VariableScope::value(const std::string& name) const
{
    for (const auto& [n, v] : values_)
        if (n == name)
            return v;
    return std::nullopt;
}

void VariableScope::setFunction(const std::string& name, Expression::Function fn, void* userData)
{
    for (Function& f : functions_)
        if (f.name == name) {
            f = {name, fn, userData};
            return;
        }
    functions_.push_back({name, fn, userData});
}

void VariableScope::defineIn(Expression& expression) const
{
    for (const auto& [name, v] : values_)
        expression.defineConstant(name, v);
    for (const Function& f : functions_)
        expression.bindFunction(f.name, f.fn, f.userData);
}

double VariableScope::evaluate(const std::string& text, const std::string& field) const
{
    Expression e(text, field);
    defineIn(e);
    return e.evaluate();
}

std::int64_t VariableScope::evaluateInteger(const std::string& text, const std::string& field) const
{
    Expression e(text, field);
    defineIn(e);
    return e.evaluateInteger();
}

bool isIdentifier(const std::string& name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

} // namespace kw
