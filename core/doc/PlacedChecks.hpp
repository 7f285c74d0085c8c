#pragma once
// Every check of a document with the place it is evaluated: after a step (the step's
// path, "3.1", doc/StepPaths) or, with an empty path, the document's own checks (after
// the launch or the last step). The window edits them as one list.
#include "doc/Document.hpp"

#include <string>
#include <vector>

namespace kw {

struct PlacedCheck {
    std::string step; // the step's path; empty: the document's checks
    CheckSpec check;
};

class PlacedChecks {
public:
    // The steps' checks in the order StepPaths lists their steps (a repeat before its
    // inner steps), then the document's.
    static std::vector<PlacedCheck> list(const Document& doc);
    // Replaces every check of `doc` (its own and its steps') by `checks`, each at its step,
    // in the order given. Throws kw::Error(Usage) for a path that names no step of `doc`.
    static void place(Document& doc, const std::vector<PlacedCheck>& checks);
};

} // namespace kw
