#pragma once
// One muparser expression, tied to the document field it came from so every
// error names that field. Besides muparser's operators and functions it knows
// C-like `<<`, `>>` and `%`, and floor, ceil, trunc and cdiv(a, b) (ceiling
// division, for grid sizes).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kw {

class Expression {
public:
    // field names the document field in errors, e.g. "buffers[1].count".
    Expression(std::string text, std::string field);
    ~Expression();
    Expression(Expression&&) noexcept;
    Expression& operator=(Expression&&) noexcept;
    Expression(const Expression&) = delete;
    Expression& operator=(const Expression&) = delete;

    // A fixed value (document variables).
    void defineConstant(const std::string& name, double value);
    // A value read through the pointer at every evaluation (per-element names);
    // the pointee must outlive the expression.
    void bindVariable(const std::string& name, const double* value);
    // name(j): calls fn(userData, j).
    using Function = double (*)(void* userData, double argument);
    void bindFunction(const std::string& name, Function fn, void* userData);

    // Parses and checks that every name is known; evaluate() does this on first use.
    // Throws kw::Error(Expression) "field: unknown name "q" in "2*q"".
    void compile() const;
    double evaluate() const;
    // Refuses values that are not whole numbers: "field: "n/3" is not an integer (133.33)".
    std::int64_t evaluateInteger() const;

    // Names the text uses as variables (not functions), known or not.
    std::vector<std::string> usedNames() const;

    const std::string& text() const noexcept { return text_; }
    const std::string& field() const noexcept { return field_; }

    // Builds the error this expression reports for a problem with it.
    [[noreturn]] void fail(const std::string& why) const;

private:
    struct Impl;
    std::string text_, field_;
    std::unique_ptr<Impl> impl_;
};

// Compact text for a number in messages, up to 6 significant digits: 133.333, -1.125,
// 1e-07, 1048576; a fraction never reads as a whole number.
std::string formatNumber(double v);
// Exact text for a number in an expression: "400", "0.1", "1e-07" (shortest that reads back).
std::string numberText(double v);

} // namespace kw
