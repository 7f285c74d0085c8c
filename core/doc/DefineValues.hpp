#pragma once
// Compile-option defines as numbers: a define whose value is an expression of the
// document's variables (and of earlier numeric defines) is evaluated, joins the
// expression scope under its name, and reaches NVRTC as that number, so a block
// size is written once. Any other value ("float", "1.0f", "") reaches NVRTC as written.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kw {

using Defines = std::vector<std::pair<std::string, std::string>>;

// Evaluates the numeric defines against `scope` and adds them to it (a name the
// scope already has keeps its value). Returns the defines as NVRTC gets them.
Defines resolveDefines(const Defines& defines, VariableScope& scope);

// The document's variables followed by its numeric defines. Throws kw::Error(Expression)
// for a variable that cannot be evaluated.
VariableScope documentScope(const Document& doc);

} // namespace kw
