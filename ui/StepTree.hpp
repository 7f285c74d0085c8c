#pragma once
// A document's steps as a tree that the step list edits: a step is found by its path
// (indices from the top, 0-based), and each edit (insert, remove, move, move into or
// out of a repeat, duplicate) returns the path of the step it leaves selected. A repeat
// never ends up empty: the file format refuses one (docs/document-format.md, "Steps").
#include "doc/Document.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

using StepPath = std::vector<int>;

class StepTree {
public:
    // "2.1" for {1, 0}: the 1-based form of the run's results (StepResult::path).
    static std::string text(const StepPath& path);
    // The path of "2.1"; nullopt when it is not one.
    static std::optional<StepPath> parse(const std::string& text);
    // The path of a field of the document's validator ("steps[1].steps[0].launch"), and
    // the rest of the field after it (".launch"); nullopt when the field is not a step's.
    static std::optional<StepPath> ofField(const std::string& field, std::string* rest = nullptr);

    static const StepSpec* find(const std::vector<StepSpec>& steps, const StepPath& path);
    static StepSpec* find(std::vector<StepSpec>& steps, const StepPath& path);
    // Every step in document order, a repeat before its inner steps.
    static std::vector<StepPath> all(const std::vector<StepSpec>& steps);
    // The repeats' index names around the step at `path`, outermost first.
    static std::vector<std::string> indicesAround(const std::vector<StepSpec>& steps, const StepPath& path);

    // After the step at `path` (at the end when the path is empty).
    static StepPath insertAfter(std::vector<StepSpec>& steps, const StepPath& path, StepSpec step);
    // A repeat around the step at `path` (`repeat`'s own steps are replaced by it).
    static StepPath wrap(std::vector<StepSpec>& steps, const StepPath& path, StepSpec repeat);
    static StepPath duplicate(std::vector<StepSpec>& steps, const StepPath& path);

    // What may be done to the step at `path`, so that buttons are enabled only then.
    static bool canRemove(const std::vector<StepSpec>& steps, const StepPath& path);
    static bool canMoveUp(const std::vector<StepSpec>& steps, const StepPath& path);
    static bool canMoveDown(const std::vector<StepSpec>& steps, const StepPath& path);
    static bool canMoveInto(const std::vector<StepSpec>& steps, const StepPath& path);
    static bool canMoveOut(const std::vector<StepSpec>& steps, const StepPath& path);

    // Each does nothing and returns `path` when it may not be done.
    static StepPath remove(std::vector<StepSpec>& steps, const StepPath& path);
    static StepPath moveUp(std::vector<StepSpec>& steps, const StepPath& path);
    static StepPath moveDown(std::vector<StepSpec>& steps, const StepPath& path);
    // Into the repeat just above it, as that repeat's last step.
    static StepPath moveInto(std::vector<StepSpec>& steps, const StepPath& path);
    // Out of its repeat, just after it.
    static StepPath moveOut(std::vector<StepSpec>& steps, const StepPath& path);

    static bool isRepeat(const StepSpec& s)
    {
        return s.kind == StepSpec::Kind::Repeat || s.kind == StepSpec::Kind::RepeatUntil;
    }
};

} // namespace kw
