#include "doc/DefineValues.hpp"

#include "util/Error.hpp"

#include <cmath>

namespace kw {

Defines resolveDefines(const Defines& defines, VariableScope& scope)
{
    Defines out;
    for (const auto& [name, value] : defines) {
        std::string text = value;
        if (!value.empty() && isIdentifier(name)) {
            try {
                const double v = scope.evaluate(value, "options.defines." + name);
                if (std::isfinite(v)) {
                    text = numberText(v);
                    if (!scope.contains(name))
                        scope.set(name, v);
                }
            } catch (const Error&) {
                // Not an expression of the variables: C text for the compiler alone.
            }
        }
        out.emplace_back(name, text);
    }
    return out;
}

VariableScope documentScope(const Document& doc)
{
    VariableScope scope = VariableScope::evaluate(doc.variables);
    resolveDefines(doc.options.defines, scope);
    return scope;
}

} // namespace kw
