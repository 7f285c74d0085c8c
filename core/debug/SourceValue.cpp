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
    if (!isSourceNumber(kind, size))
        refuse(fmt::format("a value of {} bytes that is not a number", size));
    LaneValue v;
    v.exists = true;
    v.number = sourceNumber(kind, size, bits);
    if (size < 8)
        bits &= (std::uint64_t(1) << (8 * size)) - 1;
    switch (kind) {
    case SourceType::Kind::Signed: {
        const int shift = 64 - 8 * int(size);
        v.text = fmt::format("{}", std::int64_t(bits << shift) >> shift);
        break;
    }
    case SourceType::Kind::Unsigned: v.text = fmt::format("{}", bits); break;
    case SourceType::Kind::Bool: v.text = bits != 0 ? "true" : "false"; break;
    case SourceType::Kind::Pointer: v.text = fmt::format("0x{:x}", bits); break;
    default: v.text = size == 4 ? fmt::format("{}", float(v.number)) : fmt::format("{}", v.number); break;
    }
    return v;
}

// The bits of `size` at the variable's place plus `offset`, for one lane.
std::uint64_t load(const VisibleVariable& v, const sim::Warp& w, int lane, std::uint64_t offset, std::uint32_t size)
{
    if (size > 8)
        refuse(fmt::format("{}: a value of {} bytes that is not a number", v.name, size));
    const std::uint8_t* at = sourceBytes(v, w, lane, offset, size);
    if (!at) {
        switch (v.where) {
        case VisibleVariable::Where::Local: refuse(fmt::format("{}: outside the thread's local memory", v.name));
        case VisibleVariable::Where::Shared:
            refuse(fmt::format("{}: outside the block's {} bytes of shared memory", v.name, w.L ? w.L->sharedSize : 0));
        case VisibleVariable::Where::Global: refuse(fmt::format("{}: outside the launch's memory", v.name));
        default: refuse(fmt::format("{}: {}", v.name, v.why));
        }
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, at, size);
    return bits;
}

} // namespace

double halfNumber(std::uint16_t bits) { return halfToDouble(bits); }

bool isSourceNumber(SourceType::Kind kind, std::uint32_t size)
{
    switch (kind) {
    case SourceType::Kind::Signed:
    case SourceType::Kind::Unsigned:
    case SourceType::Kind::Bool:
    case SourceType::Kind::Pointer: return size >= 1 && size <= 8;
    case SourceType::Kind::Float: return size == 2 || size == 4 || size == 8;
    default: return false;
    }
}

const std::uint8_t* sourceBytes(const VisibleVariable& v, const sim::Warp& w, int lane, std::uint64_t offset,
                                std::uint32_t size)
{
    const std::uint64_t address = v.address + offset;
    switch (v.where) {
    case VisibleVariable::Where::Local:
        if (address + size > w.localBytes)
            return nullptr;
        return w.local + std::size_t(lane) * w.localBytes + address;
    case VisibleVariable::Where::Shared:
        if (!w.blk || address + size > w.L->sharedSize)
            return nullptr;
        return w.blk->shared + address;
    case VisibleVariable::Where::Global: {
        const sim::MemRegion* r = w.L ? w.L->mem.find(address, size) : nullptr;
        return r ? r->host + (address - r->base) : nullptr;
    }
    default: return nullptr;
    }
}

LaneValue sourceValue(const VisibleVariable& v, const sim::Warp& w, int lane)
{
    if (v.where == VisibleVariable::Where::Nowhere)
        refuse(fmt::format("{}: {}", v.name, v.why));
    const SourceType& t = v.type();
    if (t.kind == SourceType::Kind::Array || t.kind == SourceType::Kind::Struct || t.kind == SourceType::Kind::Other)
        refuse(fmt::format(
            "{} is a {}: {}", v.name, t.name,
            t.kind == SourceType::Kind::Array ? fmt::format("read its elements as {}(i)", v.name)
                : t.kind == SourceType::Kind::Struct
                ? fmt::format("name a member ({}.{})", v.name, t.members.empty() ? std::string("x") : t.members[0].name)
                : std::string("it has no single value")));
    if (v.where == VisibleVariable::Where::Register)
        return shown(t.kind, t.size, w.reg(v.reg)[lane]);
    return shown(t.kind, t.size, load(v, w, lane, 0, t.size));
}

LaneValue sourceElement(const VisibleVariable& v, const sim::Warp& w, int lane, double index)
{
    const SourceType& t = v.type();
    if (t.kind != SourceType::Kind::Array)
        refuse(fmt::format("{} is not an array", v.name));
    if (v.where == VisibleVariable::Where::Nowhere || v.where == VisibleVariable::Where::Register)
        refuse(fmt::format("{}: {}", v.name, v.why.empty() ? "its elements are not in memory" : v.why));
    if (!(index >= 0) || index != std::floor(index) || (t.count && index >= double(t.count)))
        refuse(fmt::format("{}({}): outside the array of {} elements", v.name, index, t.count));
    return shown(t.element, t.size, load(v, w, lane, std::uint64_t(index) * t.size, t.size));
}

bool expandable(const VisibleVariable& v)
{
    const SourceType& t = v.type();
    if (t.kind == SourceType::Kind::Struct)
        return !t.members.empty();
    return t.kind == SourceType::Kind::Array && t.count > 0 && t.count <= kShownElements
        && isSourceNumber(t.element, t.size);
}

std::vector<VisibleVariable> parts(const VisibleVariable& v)
{
    std::vector<VisibleVariable> out;
    const SourceType& t = v.type();
    if (t.kind == SourceType::Kind::Struct)
        for (const dwarf::SourceMember& m : t.members)
            out.push_back(*memberOf(v, m.name));
    return out;
}

std::string sourceText(const VisibleVariable& v, const sim::Warp& w, int lane)
{
    if (v.where == VisibleVariable::Where::Nowhere)
        return v.why;
    const SourceType& t = v.type();
    if (t.kind == SourceType::Kind::Struct) {
        if (v.where == VisibleVariable::Where::Register)
            return fmt::format("({}: held in a register, its members are not read)", t.name);
        std::string out = "{";
        for (const VisibleVariable& m : parts(v))
            out += fmt::format("{}{} = {}", out.size() > 1 ? ", " : "", m.name.substr(v.name.size() + 1),
                               sourceText(m, w, lane));
        if (!t.membersUnreadable.empty())
            out += fmt::format("{}... ({})", out.size() > 1 ? ", " : "", t.membersUnreadable);
        return out + "}";
    }
    if (t.kind == SourceType::Kind::Array) {
        if (!expandable(v))
            return fmt::format("({}: {}(i))", t.name, v.name);
        std::string out = "{";
        for (std::uint64_t i = 0; i < t.count; ++i) {
            std::string e;
            try {
                e = sourceElement(v, w, lane, double(i)).text;
            } catch (const Error& err) {
                return err.what();
            }
            out += (i ? ", " : "") + e;
        }
        return out + "}";
    }
    if (t.kind == SourceType::Kind::Other)
        return fmt::format("({})", t.name);
    try {
        return sourceValue(v, w, lane).text;
    } catch (const Error& e) {
        return e.what();
    }
}

} // namespace kw::debug
