#pragma once
// The profile as text, for `kwb-run run --profile` after the normal output: the kernel's
// totals with their derived figures, the costliest lines and the findings
// (docs/profile.md).
#include "launch/RunResult.hpp"

#include <cstddef>
#include <cstdio>
#include <string>

namespace kw {

// `source`: the kernel's source text, quoted next to its lines (may be empty).
// Prints nothing when the result has no profile.
void printProfile(std::FILE* out, const RunResult& result, const std::string& source, std::size_t lines = 10);
std::string profileReportText(const RunResult& result, const std::string& source, std::size_t lines = 10);

} // namespace kw
