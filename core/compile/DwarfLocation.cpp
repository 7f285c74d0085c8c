#include "compile/DwarfLocation.hpp"

#include "util/Error.hpp"

#include <cctype>
#include <fmt/format.h>

namespace kw::dwarf {

namespace {

constexpr std::uint8_t kOpAddr = 0x03, kOpPlusUconst = 0x23, kOpRegx = 0x90;

[[noreturn]] void unknown(const std::string& what)
{
    throw Error(ErrorCategory::Simulator,
                "debug information: a location " + what + ", which this reader does not know");
}

} // namespace

std::string packedRegisterName(std::uint64_t operand)
{
    std::string name;
    for (; operand; operand >>= 8)
        name.insert(name.begin(), char(operand & 0xff));
    if (name.size() < 2 || name[0] != '%')
        return {};
    for (std::size_t i = 1; i < name.size(); ++i)
        if (!std::isalnum(static_cast<unsigned char>(name[i])) && name[i] != '_' && name[i] != '.')
            return {};
    return name;
}

VariableLocation decodeLocation(const DwarfBlock& expression)
{
    DebugSection bytes{".debug_info", expression.bytes, expression.references};
    DwarfCursor c(bytes);
    VariableLocation v;
    if (c.atEnd())
        unknown("that is empty");
    const std::uint8_t op = c.u8();
    if (op == kOpRegx) {
        const std::uint64_t operand = c.uleb();
        v.registerName = packedRegisterName(operand);
        if (v.registerName.empty())
            unknown(fmt::format("in register {} (not a PTX register's name)", operand));
    } else if (op == kOpAddr) {
        const SymbolReference* r = c.reference();
        if (!r)
            unknown("at a numeric address");
        v.kind = VariableLocation::Kind::Address;
        v.symbol = r->symbol;
        v.offset = r->addend;
        c.fixed(8);
        while (!c.atEnd()) {
            if (c.u8() != kOpPlusUconst)
                unknown(fmt::format("with operation 0x{:x} after an address", bytes.bytes[c.offset() - 1]));
            v.offset += c.uleb();
        }
    } else {
        unknown(fmt::format("with operation 0x{:x}", op));
    }
    if (!c.atEnd())
        unknown(fmt::format("with operation 0x{:x} after a register", bytes.bytes[c.offset()]));
    return v;
}

std::vector<LocationRange> readLocationList(const DebugSection& loc, std::size_t offset)
{
    DwarfCursor c(loc, offset);
    std::vector<LocationRange> out;
    for (;;) {
        const SymbolReference* begin = c.reference();
        const std::uint64_t b = c.fixed(8);
        const SymbolReference* end = c.reference();
        const std::uint64_t e = c.fixed(8);
        if (!begin && !end && b == 0 && e == 0)
            return out;
        if (!begin || !end)
            c.fail("a location list entry at a numeric address");
        if (begin->addend || end->addend)
            c.fail("a location list entry at a label plus an offset");
        LocationRange r;
        r.begin = begin->symbol;
        r.end = end->symbol;
        r.location = decodeLocation(c.block(std::size_t(c.fixed(2))));
        out.push_back(std::move(r));
    }
}

} // namespace kw::dwarf
