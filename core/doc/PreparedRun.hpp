#pragma once
// A document evaluated into what a backend executes: initial buffers, argument
// bytes and the launch configuration; and, after the launch, its checks.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"
#include "launch/LaunchTypes.hpp"
#include "launch/RunResult.hpp"

#include <cstddef>
#include <vector>

namespace kw {

struct PreparedRun {
    VariableScope variables;                      // the document's variables
    VariableScope checkScope;                     // variables plus scalar arguments by parameter name
    std::vector<BufferArg> buffers;               // document order, initial data
    std::vector<std::vector<std::size_t>> shapes; // display shape per buffer ({count} for 1-D)
    std::vector<LaunchArg> args;                  // parameter order
    LaunchConfig config;

    // Evaluates variables, fills every buffer from its initialiser, packs the
    // scalars and evaluates the launch. The document should have passed
    // DocumentValidator; throws kw::Error(Document) naming the field otherwise.
    static PreparedRun fromDocument(const Document& doc);

    // Runs the document's checks on `buffers` (the state after the launch).
    // `initial` (the buffers as prepared, may be null) provides the `<name>_in` names.
    // Throws kw::Error(Expression) for an expression that cannot be evaluated.
    std::vector<CheckResult> evaluateChecks(const Document& doc, const std::vector<BufferArg>* initial = nullptr) const;
};

} // namespace kw
