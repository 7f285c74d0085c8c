#pragma once
// The debugging information entries of .debug_info as a tree (DWARF 2 to 4, the
// versions NVRTC writes): each DIE's tag, attributes and children. Values that name a
// symbol (a label, a variable, an offset into .debug_loc) keep the symbol; references
// between DIEs are offsets into .debug_info. A form it does not know is an error,
// never a guess, since the bytes after it could not be read.
#include "compile/DwarfCursor.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::dwarf {

// The DW_TAG_*, DW_AT_* and DW_FORM_* values this reader names.
namespace tag {
constexpr std::uint64_t ArrayType = 0x01, FormalParameter = 0x05, LexicalBlock = 0x0b, PointerType = 0x0f,
                        CompileUnit = 0x11, StructureType = 0x13, Typedef = 0x16, UnionType = 0x17,
                        InlinedSubroutine = 0x1d, BaseType = 0x24, ConstType = 0x26, EnumerationType = 0x04,
                        ReferenceType = 0x10, Subprogram = 0x2e, Variable = 0x34, VolatileType = 0x35,
                        RestrictType = 0x37;
}
namespace at {
constexpr std::uint64_t Location = 0x02, Name = 0x03, ByteSize = 0x0b, LowPc = 0x11, HighPc = 0x12, Encoding = 0x3e,
                        Type = 0x49, AbstractOrigin = 0x31, AddressClass = 0x33, LinkageName = 0x6e,
                        MipsLinkageName = 0x2007, DeclLine = 0x3b, Ranges = 0x55;
}

struct DwarfAttribute {
    std::uint64_t name = 0;
    std::uint64_t form = 0;
    std::uint64_t number = 0;              // a constant, a flag, a DIE's .debug_info offset
    std::optional<SymbolReference> symbol; // an address or section offset written as a symbol
    std::string text;                      // a string
    std::optional<DwarfBlock> block;       // an expression or a block
};

struct Die {
    std::size_t offset = 0; // in .debug_info
    std::uint64_t tag = 0;
    std::size_t parent = ~std::size_t(0); // index in the tree, none for a unit
    std::vector<std::size_t> children;
    std::vector<DwarfAttribute> attributes;

    const DwarfAttribute* find(std::uint64_t name) const;
    std::string name() const; // DW_AT_name, or empty
};

class DwarfDieTree {
public:
    // Throws kw::Error when .debug_info or .debug_abbrev is missing or cannot be read.
    explicit DwarfDieTree(const PtxDebugSections& sections);

    const std::vector<Die>& dies() const { return dies_; }
    // The DIE at a .debug_info offset (a reference's target), or null.
    const Die* atOffset(std::size_t offset) const;
    const Die* parent(const Die& d) const { return d.parent < dies_.size() ? &dies_[d.parent] : nullptr; }

private:
    std::vector<Die> dies_; // in offset order
};

} // namespace kw::dwarf
