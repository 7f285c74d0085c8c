#include "compile/DwarfAbbreviations.hpp"

#include "compile/DwarfCursor.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw::dwarf {

DwarfAbbreviations::DwarfAbbreviations(const DebugSection& section, std::size_t offset)
{
    DwarfCursor c(section, offset);
    while (!c.atEnd()) {
        const std::uint64_t code = c.uleb();
        if (code == 0)
            return;
        Abbreviation a;
        a.tag = c.uleb();
        a.hasChildren = c.u8() != 0;
        for (;;) {
            const std::uint64_t attribute = c.uleb();
            const std::uint64_t form = c.uleb();
            if (attribute == 0 && form == 0)
                break;
            a.attributes.emplace_back(attribute, form);
        }
        if (!table_.emplace(code, std::move(a)).second)
            c.fail(fmt::format("abbreviation {} defined twice", code));
    }
}

const Abbreviation& DwarfAbbreviations::at(std::uint64_t code) const
{
    const auto it = table_.find(code);
    if (it == table_.end())
        throw Error(ErrorCategory::Simulator, fmt::format("debug information: no abbreviation {}", code));
    return it->second;
}

} // namespace kw::dwarf
