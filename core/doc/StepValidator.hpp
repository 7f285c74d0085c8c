#pragma once
// Checks the meaning of a version-2 document's kernels and steps once their JSON shape is
// right: every launch names a listed kernel and passes what its parameters take, the
// buffers a copy, fill or swap names exist and fit, a repeat's count and a loop's
// condition and limit use only names they may (the buffers as functions, name(j); a
// repeat's index inside it). Values read from buffers are known only while running, so
// expressions here are checked for their names, not evaluated.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

namespace kw {

class StepValidator {
public:
    // `scope`: the document's variables. Throws kw::Error(Document) naming the field.
    static void validate(const Document& doc, const VariableScope& scope);
};

} // namespace kw
