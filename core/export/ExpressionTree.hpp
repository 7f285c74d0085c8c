#pragma once
// A document expression (muparser's syntax with the workbench's `<<`, `>>`, `%`, floor,
// ceil, trunc and cdiv) read into a tree, so an exporter can write it in another
// language with the same meaning. Precedence and associativity follow doc/Expression:
// ?: lowest, then ||, &&, comparisons and shifts, + -, * / % and unary signs, ^ (right).
#include <memory>
#include <string>
#include <vector>

namespace kw::exporting {

struct ExpressionNode {
    enum class Kind { Number, Name, Call, Unary, Binary, Ternary };
    Kind kind = Kind::Number;
    std::string text; // the number as written, the name, the function or the operator
    std::vector<std::unique_ptr<ExpressionNode>> children;
};

class ExpressionTree {
public:
    // Throws kw::Error(Expression) naming `field` when the text does not parse.
    ExpressionTree(const std::string& text, const std::string& field);
    const ExpressionNode& root() const { return *root_; }
    // The names read as values, and the functions called, each once.
    std::vector<std::string> names() const;
    std::vector<std::string> calls() const;

private:
    std::unique_ptr<ExpressionNode> root_;
};

} // namespace kw::exporting
