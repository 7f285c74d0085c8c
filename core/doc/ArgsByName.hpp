#pragma once
// "args": "auto": each kernel parameter bound to the buffer or variable of its own name.
#include "doc/Document.hpp"

#include <vector>

namespace kw {

// The arguments for doc.kernel's parameters in order: a buffer of the parameter's name
// (pointers), else a variable of that name (scalars, typed from the parameter). Throws
// kw::Error(Document) naming the parameter that has neither, or whose type has no dtype.
std::vector<ArgSpec> bindArgsByName(const Document& doc);
// The same for `kernel` (a step's), naming `field` ("steps[1].args (auto)") in errors.
std::vector<ArgSpec> bindArgsByName(const Document& doc, const std::string& kernel, const std::string& field);

} // namespace kw
