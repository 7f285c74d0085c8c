#include "grade/Exercise.hpp"

namespace kw::grade {

const OutputComparison* Exercise::output(const std::string& buffer) const
{
    for (const auto& o : outputs)
        if (o.buffer == buffer)
            return &o;
    return nullptr;
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
