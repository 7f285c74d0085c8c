#include "doc/ElementIndex.hpp"

namespace kw {

void ElementIndex::bindIn(Expression& e, const std::function<bool(const std::string&)>& isDocumentName)
{
    for (auto [name, value] : {std::pair{"i", &i_}, {"x", &x_}, {"y", &y_}, {"z", &z_}}) {
        const std::string plain = name, always = std::string("_") + name;
        if (!isDocumentName(plain))
            e.bindVariable(plain, value);
        if (!isDocumentName(always))
            e.bindVariable(always, value);
    }
}

} // namespace kw
