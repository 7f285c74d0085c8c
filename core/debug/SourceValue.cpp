#include "debug/SourceValue.hpp"

#include "data/HalfFloat.hpp"
#include "sim/Warp.hpp"
#include "util/Error.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace kw::debug {

using dwarf::SourceType;

namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCategory::Usage, what); }

LaneValue shown(SourceType::Kind kind, std::uint32_t size, std::uint64_t bits)
{
    LaneValue v;
    v.exists = true;
    if (size < 8)
        bits &= (std::uint64_t(1) << (8 * size)) - 1;
    switch (kind) {
    case SourceType::Kind::Signed: {
        const int shift = 64 - 8 * int(size);
        const std::int64_t s = std::int64_t(bits << shift) >> shift;
        v.number = double(s);
        v.text = fmt::format("{}", s);
        return v;
    }
    case SourceType::Kind::Unsigned:
        v.number = double(bits);
        v.text = fmt::format("{}", bits);
        return v;
    case SourceType::Kind::Bool:
        v.number = bits != 0 ? 1 : 0;
        v.text = bits != 0 ? "true" : "false";
        return v;
    case SourceType::Kind::Pointer:
        v.number = double(bits);
        v.text = fmt::format("0x{:x}", bits);
        return v;
    case SourceType::Kind::Float:
        if (size == 4) {
            const float f = std::bit_cast<float>(std::uint32_t(bits));
            v.number = f;
            v.text = fmt::format("{}", f);
            return v;
        }
        if (size == 8) {
            v.number = std::bit_cast<double>(bits);
            v.text = fmt::format("{}", v.number);
            return v;
        }
        if (size == 2) {
            v.number = halfToDouble(std::uint16_t(bits));
            v.text = fmt::format("{}", v.number);
            return v;
        }
        break;
    default: break;
    }
    refuse(fmt::format("a value of {} bytes that is not a number", size));
}

// The bytes of `size` at the variable's place plus `offset`, for one lane.
std::uint64_t load(const VisibleVariable& v, const sim::Warp& w, int lane, std::uint64_t offset, std::uint32_t size)
{
    const std::uint8_t* at = nullptr;
    const std::uint64_t address = v.address + offset;
    switch (v.where) {
    case VisibleVariable::Where::Local:
        if (address + size > w.localBytes)
            refuse(fmt::format("{}: outside the thread's local memory", v.name));
        at = w.local + std::size_t(lane) * w.localBytes + address;
        break;
    case VisibleVariable::Where::Shared:
        if (!w.blk || address + size > w.L->sharedSize)
            refuse(fmt::format("{}: outside the block's {} bytes of shared memory", v.name, w.L ? w.L->sharedSize : 0));
        at = w.blk->shared + address;
        break;
    case VisibleVariable::Where::Global: {
        const sim::MemRegion* r = w.L ? w.L->mem.find(address, size) : nullptr;
        if (!r)
            refuse(fmt::format("{}: outside the launch's memory", v.name));
        at = r->host + (address - r->base);
        break;
    }
    default: refuse(fmt::format("{}: {}", v.name, v.why));
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, at, size);
    return bits;
}

} // namespace

LaneValue sourceValue(const VisibleVariable& v, const sim::Warp& w, int lane)
{
    if (v.where == VisibleVariable::Where::Nowhere)
        refuse(fmt::format("{}: {}", v.name, v.why));
    const SourceType& t = v.source->type;
    if (t.kind == SourceType::Kind::Array || t.kind == SourceType::Kind::Other)
        refuse(fmt::format("{} is a {}: {}", v.name, t.name,
                           t.kind == SourceType::Kind::Array ? fmt::format("read its elements as {}(i)", v.name)
                                                             : std::string("its members are not shown")));
    if (v.where == VisibleVariable::Where::Register)
        return shown(t.kind, t.size, w.reg(v.reg)[lane]);
    return shown(t.kind, t.size, load(v, w, lane, 0, t.size));
}

LaneValue sourceElement(const VisibleVariable& v, const sim::Warp& w, int lane, double index)
{
    const SourceType& t = v.source->type;
    if (t.kind != SourceType::Kind::Array)
        refuse(fmt::format("{} is not an array", v.name));
    if (v.where == VisibleVariable::Where::Nowhere || v.where == VisibleVariable::Where::Register)
        refuse(fmt::format("{}: {}", v.name, v.why.empty() ? "its elements are not in memory" : v.why));
    if (!(index >= 0) || index != std::floor(index) || (t.count && index >= double(t.count)))
        refuse(fmt::format("{}({}): outside the array of {} elements", v.name, index, t.count));
    return shown(t.element, t.size, load(v, w, lane, std::uint64_t(index) * t.size, t.size));
}

std::string sourceText(const VisibleVariable& v, const sim::Warp& w, int lane)
{
    if (v.where == VisibleVariable::Where::Nowhere)
        return v.why;
    const SourceType::Kind k = v.source->type.kind;
    if (k == SourceType::Kind::Array)
        return fmt::format("({}: {}(i))", v.source->type.name, v.name);
    if (k == SourceType::Kind::Other)
        return fmt::format("({})", v.source->type.name);
    try {
        return sourceValue(v, w, lane).text;
    } catch (const Error& e) {
        return e.what();
    }
}

} // namespace kw::debug
