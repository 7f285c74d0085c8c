#pragma once
// The DWARF sections of PTX compiled with -G, as bytes: `.section .debug_info { .b8 1,
// 17; .b32 .debug_abbrev; .b64 $L__func_begin0 }`. A value that names a symbol (a code
// label, a variable, another section) is kept as a reference at its offset, its bytes
// zero, for the reader of the section to resolve: PTX has no addresses yet.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kw::dwarf {

struct SymbolReference {
    std::size_t offset = 0; // where in the section
    std::uint8_t size = 0;  // 4 or 8 bytes
    std::string symbol;     // "$L__tmp3", "partial", ".debug_loc"
    std::uint64_t addend = 0;
};

struct DebugSection {
    std::string name; // ".debug_info"
    std::vector<std::uint8_t> bytes;
    std::vector<SymbolReference> references; // in offset order

    // The reference written at `offset`, or null when the bytes there are a number.
    const SymbolReference* referenceAt(std::size_t offset) const;
};

class PtxDebugSections {
public:
    // Throws kw::Error (Simulator) on a section it cannot read.
    static PtxDebugSections read(std::string_view ptx);

    // The section of that name (".debug_info"), or null when the PTX has none.
    const DebugSection* find(std::string_view name) const;
    bool empty() const { return sections_.empty(); }

private:
    std::vector<DebugSection> sections_;
};

} // namespace kw::dwarf
