#include "compile/DwarfCursor.hpp"

#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw::dwarf {

DwarfCursor::DwarfCursor(const DebugSection& section, std::size_t offset)
    : section_(section)
    , offset_(offset)
{
    if (offset > section.bytes.size())
        fail(fmt::format("offset {} past the end", offset));
}

void DwarfCursor::fail(const std::string& what) const
{
    throw Error(ErrorCategory::Simulator,
                fmt::format("debug information: {} in {} at byte {}", what, section_.name, offset_));
}

void DwarfCursor::need(std::size_t bytes) const
{
    if (bytes > section_.bytes.size() - offset_)
        fail("the section ends early");
}

std::uint64_t DwarfCursor::fixed(int bytes)
{
    need(std::size_t(bytes));
    std::uint64_t v = 0;
    for (int k = 0; k < bytes; ++k)
        v |= std::uint64_t(section_.bytes[offset_ + std::size_t(k)]) << (8 * k);
    offset_ += std::size_t(bytes);
    return v;
}

std::uint64_t DwarfCursor::uleb()
{
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const std::uint8_t b = u8();
        if (shift < 64)
            v |= std::uint64_t(b & 0x7f) << shift;
        else if (b & 0x7f)
            fail("an LEB128 number over 64 bits");
        if (!(b & 0x80))
            return v;
    }
}

std::int64_t DwarfCursor::sleb()
{
    std::uint64_t v = 0;
    int shift = 0;
    std::uint8_t b = 0;
    do {
        b = u8();
        if (shift < 64)
            v |= std::uint64_t(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~std::uint64_t(0) << shift;
    return std::int64_t(v);
}

std::string DwarfCursor::cstring()
{
    std::string s;
    for (;;) {
        const char c = char(u8());
        if (c == 0)
            return s;
        s += c;
    }
}

void DwarfCursor::skip(std::size_t bytes)
{
    need(bytes);
    offset_ += bytes;
}

DwarfBlock DwarfCursor::block(std::size_t bytes)
{
    need(bytes);
    DwarfBlock b;
    b.bytes.assign(section_.bytes.begin() + std::ptrdiff_t(offset_),
                   section_.bytes.begin() + std::ptrdiff_t(offset_ + bytes));
    for (const SymbolReference& r : section_.references)
        if (r.offset >= offset_ && r.offset < offset_ + bytes) {
            SymbolReference inner = r;
            inner.offset -= offset_;
            b.references.push_back(std::move(inner));
        }
    offset_ += bytes;
    return b;
}

} // namespace kw::dwarf
