#pragma once
// The document's variables, each evaluated after the ones it names (in any order in the
// document; a cycle is an error naming its variables), and the evaluation of other
// fields' expressions against them.
#include "doc/Expression.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw {

class VariableScope {
public:
    VariableScope() = default;

    // Throws kw::Error(Expression) naming the variable: `variables[1] (m): unknown name "q" in "2*q"`,
    // `variables[0] (a): the variables form a cycle: a -> b -> a`.
    static VariableScope evaluate(const std::vector<std::pair<std::string, std::string>>& variables);

    // Adds a name or replaces its value.
    void set(const std::string& name, double value);
    bool contains(const std::string& name) const;
    std::optional<double> value(const std::string& name) const;
    const std::vector<std::pair<std::string, double>>& values() const noexcept { return values_; }

    // name(j) in the expressions evaluated here calls fn(userData, j): a buffer's
    // element j, for the expressions of a document's steps. userData must outlive the scope.
    void setFunction(const std::string& name, Expression::Function fn, void* userData);

    // Defines every value as a constant of the expression, and binds the functions.
    void defineIn(Expression& expression) const;

    // field names the document field in errors ("launch.grid[0]").
    double evaluate(const std::string& text, const std::string& field) const;
    std::int64_t evaluateInteger(const std::string& text, const std::string& field) const;

private:
    struct Function {
        std::string name;
        Expression::Function fn = nullptr;
        void* userData = nullptr;
    };
    std::vector<std::pair<std::string, double>> values_;
    std::vector<Function> functions_;
};

// Names in expressions: a letter or '_' then letters, digits, '_'.
bool isIdentifier(const std::string& name);

} // namespace kw
