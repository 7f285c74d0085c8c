#pragma once
// The parts of a document that are edited one at a time (the kernel's source, its
// launch, its variables...), and the two things an edit needs of a part: to copy it
// from one document to another and to tell whether two documents agree on it.
#include "doc/Document.hpp"

namespace kw {

enum class DocumentPart {
    Source,
    Kernel,
    Launch,  // grid, block, shared memory and the run settings
    Args,    // the kernel's arguments in parameter order (and whether they are automatic)
    Buffers, // the buffers the arguments and module globals use
    Variables,
    Checks,
    Options, // compile options
    Steps,   // a document of steps: its steps and the kernels they launch
    Whole    // every field: a document loaded or restored
};

// Copies `part` of `from` over the same part of `to`; Whole copies everything.
void copyPart(DocumentPart part, const Document& from, Document& to);
// Whether `a` and `b` hold the same `part`, as the document's file would write it.
bool samePart(DocumentPart part, const Document& a, const Document& b);
// A word for the Edit menu's "Undo ..." (lower case, British spelling).
const char* partName(DocumentPart part);

} // namespace kw
