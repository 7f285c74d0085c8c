#include "doc/VariableScope.hpp"

#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

namespace kw {

VariableScope VariableScope::evaluate(const std::vector<std::pair<std::string, std::string>>& variables)
{
    const std::size_t n = variables.size();
    auto field = [&](std::size_t i) { return "variables[" + std::to_string(i) + "] (" + variables[i].first + ")"; };
    std::map<std::string, std::size_t> index; // a name given twice: its last definition counts
    for (std::size_t i = 0; i < n; ++i)
        index[variables[i].first] = i;
    // Each variable after the ones it names, whatever their order in the document.
    std::vector<std::vector<std::size_t>> uses(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const std::string& name : Expression(variables[i].second, field(i)).usedNames())
            if (auto it = index.find(name); it != index.end())
                uses[i].push_back(it->second);

    VariableScope scope;
    std::vector<std::optional<double>> value(n);
    std::vector<char> onPath(n, 0);
    std::vector<std::size_t> path;
    std::function<void(std::size_t)> visit = [&](std::size_t i) {
        if (value[i])
            return;
        if (onPath[i]) {
            std::string cycle;
            for (auto at = std::find(path.begin(), path.end(), i); at != path.end(); ++at)
                cycle += variables[*at].first + " -> ";
            throw Error(ErrorCategory::Expression,
                        field(i) + ": the variables form a cycle: " + cycle + variables[i].first);
        }
        onPath[i] = 1;
        path.push_back(i);
        for (std::size_t j : uses[i])
            visit(j);
        path.pop_back();
        onPath[i] = 0;
        scope.set(variables[i].first, scope.evaluate(variables[i].second, field(i)));
        value[i] = scope.value(variables[i].first);
    };
    for (std::size_t i = 0; i < n; ++i)
        visit(i);
    // Listed in the document's order.
    VariableScope ordered;
    for (std::size_t i = 0; i < n; ++i)
        if (index[variables[i].first] == i)
            ordered.set(variables[i].first, *value[i]);
    return ordered;
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
