#include "compile/DwarfDieTree.hpp"

#include "compile/DwarfAbbreviations.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::dwarf {

namespace {

[[noreturn]] void missing(const char* section)
{
    throw Error(ErrorCategory::Simulator, fmt::format("debug information: the PTX has no {} section", section));
}

// A 4- or 8-byte value that may be written as a symbol.
void readMaybeSymbol(DwarfCursor& c, int bytes, DwarfAttribute& a)
{
    if (const SymbolReference* r = c.reference())
        a.symbol = *r;
    a.number = c.fixed(bytes);
}

void readValue(DwarfCursor& c, const PtxDebugSections& sections, std::size_t unit, DwarfAttribute& a)
{
    switch (a.form) {
    case 0x01: readMaybeSymbol(c, 8, a); return; // addr (64-bit units only)
    case 0x03: a.block = c.block(std::size_t(c.fixed(2))); return;
    case 0x04: a.block = c.block(std::size_t(c.fixed(4))); return;
    case 0x05: a.number = c.fixed(2); return;
    case 0x06: readMaybeSymbol(c, 4, a); return; // data4: also a .debug_loc offset in DWARF 2/3
    case 0x07: readMaybeSymbol(c, 8, a); return;
    case 0x08: a.text = c.cstring(); return;
    case 0x09: a.block = c.block(std::size_t(c.uleb())); return;
    case 0x0a: a.block = c.block(c.u8()); return;
    case 0x0b: a.number = c.u8(); return;
    case 0x0c: a.number = c.u8(); return;
    case 0x0d: a.number = std::uint64_t(c.sleb()); return;
    case 0x0e: { // strp
        readMaybeSymbol(c, 4, a);
        const DebugSection* str = sections.find(".debug_str");
        if (!str)
            missing(".debug_str");
        std::size_t at = std::size_t(a.number);
        if (a.symbol) {
            if (a.symbol->symbol != ".debug_str")
                c.fail(fmt::format("a string offset names {}", a.symbol->symbol));
            at = std::size_t(a.symbol->addend);
        }
        DwarfCursor s(*str, at);
        a.text = s.cstring();
        return;
    }
    case 0x0f: a.number = c.uleb(); return;
    case 0x11: a.number = unit + c.fixed(1); return;
    case 0x12: a.number = unit + c.fixed(2); return;
    case 0x13: a.number = unit + c.fixed(4); return;
    case 0x14: a.number = unit + c.fixed(8); return;
    case 0x15: a.number = unit + c.uleb(); return;
    case 0x17: readMaybeSymbol(c, 4, a); return; // sec_offset
    case 0x18: a.block = c.block(std::size_t(c.uleb())); return;
    case 0x19: a.number = 1; return; // flag_present
    default: c.fail(fmt::format("attribute 0x{:x} has form 0x{:x}, which this reader does not know", a.name, a.form));
    }
}

} // namespace

const DwarfAttribute* Die::find(std::uint64_t n) const
{
    for (const DwarfAttribute& a : attributes)
        if (a.name == n)
            return &a;
    return nullptr;
}

std::string Die::name() const
{
    const DwarfAttribute* a = find(at::Name);
    return a ? a->text : std::string();
}

DwarfDieTree::DwarfDieTree(const PtxDebugSections& sections)
{
    const DebugSection* info = sections.find(".debug_info");
    const DebugSection* abbrev = sections.find(".debug_abbrev");
    if (!info)
        missing(".debug_info");
    if (!abbrev)
        missing(".debug_abbrev");
    DwarfCursor c(*info);
    while (!c.atEnd()) {
        const std::size_t unit = c.offset();
        const std::uint64_t length = c.fixed(4);
        if (length >= 0xfffffff0)
            c.fail("a 64-bit DWARF unit, which this reader does not know");
        const std::size_t end = c.offset() + std::size_t(length);
        const std::uint64_t version = c.fixed(2);
        if (version < 2 || version > 4)
            c.fail(fmt::format("DWARF version {}, which this reader does not know (2 to 4)", version));
        std::size_t abbrevOffset = 0;
        if (const SymbolReference* r = c.reference()) {
            if (r->symbol != ".debug_abbrev")
                c.fail(fmt::format("the abbreviations' offset names {}", r->symbol));
            abbrevOffset = std::size_t(r->addend);
            c.fixed(4);
        } else {
            abbrevOffset = std::size_t(c.fixed(4));
        }
        const std::uint64_t addressSize = c.u8();
        if (addressSize != 8)
            c.fail(fmt::format("{}-byte addresses, which this reader does not know", addressSize));
        const DwarfAbbreviations table(*abbrev, abbrevOffset);
        std::vector<std::size_t> open; // the DIEs whose children are being read
        while (c.offset() < end) {
            const std::size_t offset = c.offset();
            const std::uint64_t code = c.uleb();
            if (code == 0) {
                if (!open.empty())
                    open.pop_back();
                continue;
            }
            const Abbreviation& a = table.at(code);
            Die d;
            d.offset = offset;
            d.tag = a.tag;
            if (!open.empty())
                d.parent = open.back();
            for (const auto& [name, form] : a.attributes) {
                DwarfAttribute v;
                v.name = name;
                v.form = form;
                readValue(c, sections, unit, v);
                d.attributes.push_back(std::move(v));
            }
            const std::size_t index = dies_.size();
            if (!open.empty())
                dies_[open.back()].children.push_back(index);
            dies_.push_back(std::move(d));
            if (a.hasChildren)
                open.push_back(index);
        }
        if (c.offset() != end)
            c.fail("a unit's DIEs run past its length");
    }
}

const Die* DwarfDieTree::atOffset(std::size_t offset) const
{
    const auto it = std::lower_bound(dies_.begin(), dies_.end(), offset,
                                     [](const Die& d, std::size_t o) { return d.offset < o; });
    return it != dies_.end() && it->offset == offset ? &*it : nullptr;
}

} // namespace kw::dwarf
