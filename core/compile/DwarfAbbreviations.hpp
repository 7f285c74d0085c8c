#pragma once
// A compile unit's abbreviation table (.debug_abbrev): for each code, the DIE's tag,
// whether it has children, and its attributes with their forms.
#include "compile/PtxDebugSections.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace kw::dwarf {

struct Abbreviation {
    std::uint64_t tag = 0;
    bool hasChildren = false;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> attributes; // (DW_AT_*, DW_FORM_*)
};

class DwarfAbbreviations {
public:
    // The table at `offset` of `section`. Throws kw::Error on bytes it cannot read.
    DwarfAbbreviations(const DebugSection& section, std::size_t offset);
    // Throws kw::Error for a code the table does not have.
    const Abbreviation& at(std::uint64_t code) const;

private:
    std::map<std::uint64_t, Abbreviation> table_;
};

} // namespace kw::dwarf
