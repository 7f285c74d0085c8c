#pragma once
// The one rule for a step's path (docs/document-format.md, "Steps"): its place in the
// document, counted from 1, an inner step's after its repeat's and a dot ("2", "3.1").
#include "doc/Document.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw {

class StepPaths {
public:
    // Every step in document order, a repeat before its inner steps.
    static std::vector<std::pair<std::string, const StepSpec*>> list(const std::vector<StepSpec>& steps);
    // The path of the i-th (0-based) step of the list whose repeat has path `parent` ("" at the top).
    static std::string child(const std::string& parent, std::size_t i);
    // The 0-based places a path names, outermost first ("3.1": 2, 0); nothing for a path
    // that is no list of numbers from 1.
    static std::optional<std::vector<std::size_t>> places(const std::string& path);
    // The step at `path`, or null where it names none.
    static const StepSpec* find(const std::vector<StepSpec>& steps, const std::string& path);
    static StepSpec* find(std::vector<StepSpec>& steps, const std::string& path);
};

} // namespace kw
