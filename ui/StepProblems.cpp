#include "StepProblems.hpp"

#include "doc/StepValidator.hpp"
#include "doc/VariableScope.hpp"

#include <exception>

namespace kw {

StepProblems StepProblems::of(const Document& doc)
{
    StepProblems found;
    if (!doc.isSequence())
        return found;
    VariableScope scope;
    try {
        scope = VariableScope::evaluate(doc.variables);
    } catch (const std::exception&) {
        return found; // the variables' own error is shown where they are edited
    }
    Document left = doc;
    // Each pass removes a step or a kernel, so this ends; the bound is for safety only.
    const std::size_t passes = StepTree::all(doc.steps).size() + doc.kernels.size() + 1;
    for (std::size_t pass = 0; pass < passes; ++pass) {
        std::string message;
        try {
            StepValidator::validate(left, scope);
            break;
        } catch (const std::exception& e) {
            message = e.what();
        }
        std::string rest;
        const std::optional<StepPath> at = StepTree::ofField(message, &rest);
        if (StepSpec* s = at ? StepTree::find(left.steps, *at) : nullptr) {
            found.atStep.emplace(*at, rest.rfind('.', 0) == 0 ? rest.substr(1) : rest);
            // Checked again in place of the faulty step: a repeat of nothing, which the
            // validator passes; a repeat keeps its inner steps (and its index, unless the
            // index was the fault) so that their errors are found too.
            StepSpec stand;
            stand.kind = StepSpec::Kind::Repeat;
            stand.times = "1";
            if (StepTree::isRepeat(*s)) {
                stand.steps = std::move(s->steps);
                if (rest.rfind(".index", 0) != 0)
                    stand.index = s->index;
            }
            *s = std::move(stand);
            continue;
        }
        if (found.document.empty())
            found.document = message;
        // A listed kernel the source lacks: its launches are then named at their steps.
        const std::string key = "kernels[";
        if (message.compare(0, key.size(), key) == 0) {
            const std::size_t k = std::stoul(message.substr(key.size()));
            if (k < left.kernels.size()) {
                left.kernels.erase(left.kernels.begin() + long(k));
                if (!left.kernels.empty())
                    continue;
            }
        }
        break;
    }
    return found;
}

} // namespace kw
