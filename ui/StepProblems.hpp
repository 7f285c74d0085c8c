#pragma once
// What is wrong with a document's steps, at each step: the core's StepValidator run over
// the document as it is being edited. The validator stops at the first error; to find
// the others, the step it names is left out and the rest checked again.
#include "StepTree.hpp"
#include "doc/Document.hpp"

#include <map>
#include <string>

namespace kw {

struct StepProblems {
    std::map<StepPath, std::string> atStep; // the message, from the step's own field on ("launch: ...")
    std::string document;                   // one that is not a step's (a listed kernel the source lacks)

    static StepProblems of(const Document& doc);
    bool empty() const { return atStep.empty() && document.empty(); }
};

} // namespace kw
