#pragma once
// Reads a version-2 document's "steps" (docs/document-format.md, "Steps"): their JSON
// shape only; DocumentValidator checks what they name.
#include "doc/DocumentFields.hpp"

#include <string>
#include <vector>

namespace kw {

// Steps nest through repeats at most this deep.
constexpr int kMaxStepDepth = 8;

std::vector<StepSpec> readSteps(const fields::Json& j, const std::string& field);

} // namespace kw
