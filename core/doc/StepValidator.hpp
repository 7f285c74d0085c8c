#pragma once
// Checks the meaning of a version-2 document's kernels and steps once their JSON shape is
// right: every launch names a listed kernel and passes what its parameters take, the
// buffers a copy, fill or swap names exist and fit, a repeat's count and a loop's
// condition and limit use only names they may (the buffers as functions, name(j); a
// repeat's index inside it). Values read from buffers are known only while running, so
// expressions here are checked for their names, not evaluated.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

#include <string>

namespace kw {

class StepValidator {
public:
    // `scope`: the document's variables. Throws kw::Error(Document) naming the field.
    static void validate(const Document& doc, const VariableScope& scope);
    // The check `index` of the step at `path` ("3.1") alone, as validate() checks it, with
    // the names in scope after that step: `scope` and the index of each repeat around it
    // (its own, for a repeat's check). Throws kw::Error(Document) naming the field.
    static void validateCheck(const Document& doc, const std::string& path, std::size_t index,
                              const VariableScope& scope);
};

} // namespace kw
