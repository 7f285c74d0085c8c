#pragma once
// What differs between two versions of a document, named the way a student reads it:
// "max_iter: 128 → 32", "block: 256 → 128", "buffer in, initialiser: uniform(0, 1) → arange".
// The run history's compare view lists these; the source is compared line by line
// elsewhere (util/LineDiff), here only whether it changed.
#include "doc/Document.hpp"

#include <string>
#include <vector>

namespace kw {

struct DocumentChange {
    std::string what;   // "max_iter", "block", "define N", "buffer out, count"
    std::string before; // empty: it was not there
    std::string after;  // empty: it is gone
    // "max_iter: 128 → 32", "define FAST: added (1)", "buffer tmp: removed".
    std::string text() const;
};

class DocumentChanges {
public:
    // Every difference outside the source and the notes, in the document's order.
    static std::vector<DocumentChange> between(const Document& before, const Document& after);
    static bool sourceChanged(const Document& before, const Document& after);

    // How a buffer starts, in one line: "uniform(0, 1, seed 7)", "arange(0, 1)", "copy of a".
    static std::string describe(const Initialiser& init);
    // A grid or block: "256", "16, 16" (trailing 1s left out), "n/256, 1, 4".
    static std::string describe(const std::vector<std::string>& dims);
};

} // namespace kw
