#pragma once
// Reads a DWARF section's bytes in order: fixed-size little-endian numbers, LEB128,
// strings. Reading past the end throws kw::Error naming the section.
#include "compile/PtxDebugSections.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kw::dwarf {

// Bytes cut out of a section (an expression, a block), with the symbols written in
// them at offsets from the block's start.
struct DwarfBlock {
    std::vector<std::uint8_t> bytes;
    std::vector<SymbolReference> references;
};

class DwarfCursor {
public:
    DwarfCursor(const DebugSection& section, std::size_t offset = 0);

    std::uint64_t fixed(int bytes);
    std::uint8_t u8() { return std::uint8_t(fixed(1)); }
    std::uint64_t uleb();
    std::int64_t sleb();
    std::string cstring();
    void skip(std::size_t bytes);
    DwarfBlock block(std::size_t bytes);

    std::size_t offset() const { return offset_; }
    bool atEnd() const { return offset_ >= section_.bytes.size(); }
    const DebugSection& section() const { return section_; }
    // The symbol written where the cursor stands, or null (a plain number).
    const SymbolReference* reference() const { return section_.referenceAt(offset_); }
    [[noreturn]] void fail(const std::string& what) const;

private:
    const DebugSection& section_;
    std::size_t offset_;
    void need(std::size_t bytes) const;
};

} // namespace kw::dwarf
