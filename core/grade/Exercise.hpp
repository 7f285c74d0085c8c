#pragma once
// An exercise (*.kwx, docs/exercises.md): a document whose source is the starter kernel,
// the statement shown beside it, a sealed reference, the outputs and how each is compared,
// the test cases, the limits and goals on the simulator's counters.
#include "doc/Document.hpp"
#include "grade/CounterGoal.hpp"
#include "grade/GradeCase.hpp"
#include "grade/OutputComparison.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kw::grade {

struct GradeLimits {
    double instructions = 0; // warp-level instructions per case on the simulator; 0: no limit
    double wallSeconds = 10; // per run of a case
};

struct Exercise {
    std::string title;
    std::string statement; // Markdown
    Document document;     // its source is the starter
    // The reference kernel's source (same kernels and parameters as the starter). Kept
    // in the file, encoded when the file asks for it, never shown by the workbench.
    std::string referenceSource;
    // Or an expression per output (document-format.md, "Checks": `i`, the variables, the
    // buffers, `NAME_in`), evaluated on the solution's run itself: no reference run.
    std::vector<std::pair<std::string, std::string>> referenceExpect; // output buffer, expression
    std::vector<OutputComparison> outputs;
    std::vector<GradeCase> cases;
    GradeLimits limits;
    std::vector<CounterGoal> goals;
    std::filesystem::path path;

    const OutputComparison* output(const std::string& buffer) const;
    bool expressionReference() const { return !referenceExpect.empty(); }
    // The outputs' expressions as document checks, in the order of `outputs`, with their
    // tolerances (exact: none).
    std::vector<CheckSpec> referenceChecks() const;
    // The document as the window shows it: the statement as its description, the starter.
    Document starterDocument() const;
};

} // namespace kw::grade
