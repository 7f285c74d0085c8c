#pragma once
// A document expression written as Python or C++ code that computes the same double:
// every operation in double precision, C's remainder and shifts as doc/Expression
// defines them, comparisons and logic giving 1 or 0. The generated programs carry the
// helpers the code calls (PythonPrelude / CppPrelude in the exporters: _div, kw_shl...).
#include "export/ExpressionTree.hpp"

#include <functional>
#include <optional>
#include <string>

namespace kw::exporting {

enum class Language { Python, Cpp };

class ExpressionTranslation {
public:
    // What a name means where the code runs: the code for its value, or nothing when
    // the name is unknown there. `call` does the same for name(j) with j's code.
    using NameCode = std::function<std::optional<std::string>(const std::string& name)>;
    using CallCode = std::function<std::optional<std::string>(const std::string& name, const std::string& argument)>;

    ExpressionTranslation(Language language, NameCode name, CallCode call);
    // Throws kw::Error(Expression) naming `field` for a name or function that has no
    // translation.
    std::string code(const std::string& text, const std::string& field) const;
    std::string code(const ExpressionNode& node, const std::string& field) const;

    // A double as a literal of the language that reads back to the same double.
    static std::string literal(Language language, double value);
    // Whether `name` is one of the expression language's own functions.
    static bool isBuiltinFunction(const std::string& name);

private:
    Language language_;
    NameCode name_;
    CallCode call_;
};

} // namespace kw::exporting
