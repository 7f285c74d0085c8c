#include "grade/Exercise.hpp"

namespace kw::grade {

const OutputComparison* Exercise::output(const std::string& buffer) const
{
    for (const auto& o : outputs)
        if (o.buffer == buffer)
            return &o;
    return nullptr;
}

std::vector<CheckSpec> Exercise::referenceChecks() const
{
    std::vector<CheckSpec> checks;
    for (const OutputComparison& o : outputs)
        for (const auto& [buffer, expect] : referenceExpect)
            if (buffer == o.buffer) {
                CheckSpec c;
                c.buffer = buffer;
                c.expect = expect;
                c.absTol = o.mode == OutputComparison::Mode::Tolerance ? o.atol : 0;
                c.relTol = o.mode == OutputComparison::Mode::Tolerance ? o.rtol : 0;
                checks.push_back(c);
            }
    return checks;
}

Document Exercise::starterDocument() const
{
    Document doc = document;
    if (doc.title.empty())
        doc.title = title;
    doc.description = statement;
    return doc;
}

} // namespace kw::grade
