#include "doc/PlacedChecks.hpp"

#include "doc/StepPaths.hpp"
#include "util/Error.hpp"

namespace kw {

namespace {
void clearChecks(std::vector<StepSpec>& steps)
{
    for (StepSpec& s : steps) {
        s.checks.clear();
        clearChecks(s.steps);
    }
}
} // namespace

std::vector<PlacedCheck> PlacedChecks::list(const Document& doc)
{
    std::vector<PlacedCheck> out;
    for (const auto& [path, step] : StepPaths::list(doc.steps))
        for (const CheckSpec& c : step->checks)
            out.push_back({path, c});
    for (const CheckSpec& c : doc.checks)
        out.push_back({{}, c});
    return out;
}

void PlacedChecks::place(Document& doc, const std::vector<PlacedCheck>& checks)
{
    // Every path is found before anything changes: a wrong one leaves `doc` as it was.
    std::vector<std::vector<CheckSpec>*> places;
    for (const PlacedCheck& c : checks) {
        if (c.step.empty()) {
            places.push_back(&doc.checks);
            continue;
        }
        StepSpec* step = StepPaths::find(doc.steps, c.step);
        if (!step)
            throw Error(ErrorCategory::Usage,
                        "a check is placed after step " + c.step + ", which the document does not have");
        places.push_back(&step->checks);
    }
    doc.checks.clear();
    clearChecks(doc.steps);
    for (std::size_t i = 0; i < checks.size(); ++i)
        places[i]->push_back(checks[i].check);
}

} // namespace kw
