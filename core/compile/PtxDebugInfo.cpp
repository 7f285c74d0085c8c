#include "compile/PtxDebugInfo.hpp"

#include "compile/DwarfDieTree.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw::dwarf {

namespace {

constexpr std::uint64_t kEncodingBoolean = 0x02, kEncodingFloat = 0x04, kEncodingSigned = 0x05,
                        kEncodingSignedChar = 0x06, kEncodingUnsigned = 0x07, kEncodingUnsignedChar = 0x08;
constexpr std::uint64_t kSubrangeType = 0x21, kUpperBound = 0x2f, kCount = 0x37;
constexpr std::uint64_t kClassType = 0x02, kMember = 0x0d, kDataMemberLocation = 0x38, kBitSize = 0x0d,
                        kDataBitOffset = 0x6b, kDeclaration = 0x3c, kOpPlusUconst = 0x23;

// DW_AT_data_member_location: a constant, or an expression DW_OP_plus_uconst N (NVRTC's).
std::optional<std::uint64_t> memberOffset(const DwarfAttribute& a)
{
    if (!a.block)
        return a.number;
    const std::vector<std::uint8_t>& b = a.block->bytes;
    if (b.empty() || b[0] != kOpPlusUconst)
        return std::nullopt;
    std::uint64_t n = 0;
    int shift = 0;
    for (std::size_t i = 1; i < b.size() && shift < 64; ++i, shift += 7) {
        n |= std::uint64_t(b[i] & 0x7f) << shift;
        if (!(b[i] & 0x80))
            return i + 1 == b.size() ? std::optional(n) : std::nullopt;
    }
    return std::nullopt;
}

std::uint64_t number(const Die& d, std::uint64_t attribute, std::uint64_t otherwise = 0)
{
    const DwarfAttribute* a = d.find(attribute);
    return a ? a->number : otherwise;
}

class TypeReader {
public:
    explicit TypeReader(const DwarfDieTree& tree)
        : tree_(tree)
    {
    }

    // The type a DIE's DW_AT_type names (void when it names none).
    // `named`: the name alone (a pointer's target; members not read, so that a struct
    // pointing to its own kind ends).
    SourceType of(const Die& d, int depth = 0, bool named = false) const
    {
        const DwarfAttribute* t = d.find(at::Type);
        if (!t)
            return SourceType{SourceType::Kind::Other, "void"};
        const Die* type = tree_.atOffset(std::size_t(t->number));
        if (!type || depth > 32)
            throw Error(ErrorCategory::Simulator,
                        fmt::format("debug information: a type reference to offset {} leads nowhere", t->number));
        return read(*type, depth + 1, named);
    }

private:
    const DwarfDieTree& tree_;

    SourceType read(const Die& type, int depth, bool named) const
    {
        switch (type.tag) {
        case tag::BaseType: {
            SourceType s;
            s.name = type.name();
            s.size = std::uint32_t(number(type, at::ByteSize));
            switch (number(type, at::Encoding)) {
            case kEncodingBoolean: s.kind = SourceType::Kind::Bool; break;
            case kEncodingFloat: s.kind = SourceType::Kind::Float; break;
            case kEncodingSigned:
            case kEncodingSignedChar: s.kind = SourceType::Kind::Signed; break;
            case kEncodingUnsigned:
            case kEncodingUnsignedChar: s.kind = SourceType::Kind::Unsigned; break;
            default: s.kind = SourceType::Kind::Other;
            }
            return s;
        }
        case tag::PointerType:
        case tag::ReferenceType: {
            const SourceType to = of(type, depth, true);
            const bool pointer = type.tag == tag::PointerType;
            return SourceType{SourceType::Kind::Pointer, to.name + (pointer ? " *" : " &"), 8};
        }
        case tag::ConstType:
        case tag::VolatileType: {
            SourceType s = of(type, depth, named);
            s.name = (type.tag == tag::ConstType ? "const " : "volatile ") + s.name;
            return s;
        }
        case tag::RestrictType: return of(type, depth, named);
        case tag::Typedef: {
            SourceType s = of(type, depth, named);
            s.name = type.name();
            return s;
        }
        case tag::ArrayType: {
            const SourceType element = of(type, depth, named);
            SourceType s{SourceType::Kind::Array, element.name, element.size};
            s.element = element.kind;
            s.members = element.members;
            s.membersUnreadable = element.membersUnreadable;
            std::string dims;
            for (const std::size_t c : type.children) {
                const Die& sub = tree_.dies()[c];
                if (sub.tag != kSubrangeType)
                    continue;
                std::uint64_t n = 0;
                if (sub.find(kCount))
                    n = number(sub, kCount);
                else if (sub.find(kUpperBound))
                    n = number(sub, kUpperBound) + 1;
                s.count = dims.empty() ? n : s.count * n;
                dims += n ? fmt::format("[{}]", n) : "[]";
            }
            s.name += dims;
            return s;
        }
        case tag::StructureType:
        case kClassType: {
            SourceType s{SourceType::Kind::Struct, type.name().empty() ? "struct" : type.name(),
                         std::uint32_t(number(type, at::ByteSize))};
            if (named)
                return s;
            if (type.find(kDeclaration))
                s.membersUnreadable = "its definition is not in the debug information";
            for (const std::size_t c : type.children) {
                const Die& m = tree_.dies()[c];
                if (m.tag != kMember)
                    continue;
                const DwarfAttribute* where = m.find(kDataMemberLocation);
                if (m.find(kBitSize) || m.find(kDataBitOffset)) { // its bits are not read: said as its type
                    SourceType field = of(m, depth, true);
                    field.name = fmt::format("{} : {} bit-field, not read", field.name, number(m, kBitSize));
                    field.kind = SourceType::Kind::Other;
                    s.members.push_back({m.name(), where ? memberOffset(*where).value_or(0) : 0, field});
                    continue;
                }
                const auto offset = where ? memberOffset(*where) : std::nullopt;
                if (!offset) {
                    s.membersUnreadable = fmt::format("member {} has no offset this reader knows", m.name());
                    continue;
                }
                s.members.push_back({m.name(), *offset, of(m, depth)});
            }
            return s;
        }
        case tag::UnionType:
        case tag::EnumerationType: {
            const std::string kind = type.tag == tag::UnionType ? "union" : "enum";
            const std::string name = type.name();
            return SourceType{SourceType::Kind::Other, name.empty() ? kind : name,
                              std::uint32_t(number(type, at::ByteSize))};
        }
        default:
            return SourceType{SourceType::Kind::Other, type.name().empty() ? "?" : type.name(),
                              std::uint32_t(number(type, at::ByteSize))};
        }
    }
};

// A name or type given by the DIE itself or by its abstract origin (an inlined copy).
const Die& origin(const DwarfDieTree& tree, const Die& d)
{
    if (const DwarfAttribute* o = d.find(at::AbstractOrigin))
        if (const Die* target = tree.atOffset(std::size_t(o->number)))
            return *target;
    return d;
}

std::string label(const Die& d, std::uint64_t attribute)
{
    const DwarfAttribute* a = d.find(attribute);
    if (!a || !a->symbol || a->symbol->addend)
        return {};
    return a->symbol->symbol;
}

} // namespace

std::optional<PtxDebugInfo> PtxDebugInfo::read(std::string_view ptx)
{
    const PtxDebugSections sections = PtxDebugSections::read(ptx);
    if (!sections.find(".debug_info"))
        return std::nullopt;
    const DwarfDieTree tree(sections);
    const TypeReader types(tree);
    const DebugSection* loc = sections.find(".debug_loc");
    PtxDebugInfo out;
    for (const Die& d : tree.dies()) {
        if (d.tag != tag::Variable && d.tag != tag::FormalParameter)
            continue;
        const Die& named = origin(tree, d);
        SourceVariable v;
        v.name = named.name();
        if (v.name.empty())
            continue; // compiler temporaries
        v.parameter = d.tag == tag::FormalParameter;
        v.line = std::uint32_t(number(named, at::DeclLine));
        v.addressClass = std::uint32_t(number(d, at::AddressClass));
        // The scopes between it and its function.
        bool inFunction = false;
        for (const Die* p = tree.parent(d); p; p = tree.parent(*p)) {
            if (p->tag == tag::Subprogram) {
                for (const std::size_t c : p->children)
                    if (tree.dies()[c].tag == tag::LexicalBlock) {
                        v.bodyBegin = label(tree.dies()[c], at::LowPc);
                        break;
                    }
                const DwarfAttribute* linkage = p->find(at::MipsLinkageName);
                if (!linkage)
                    linkage = p->find(at::LinkageName);
                v.function = linkage ? linkage->text : p->name();
                inFunction = true;
                break;
            }
            if (p->tag == tag::LexicalBlock || p->tag == tag::InlinedSubroutine) {
                LabelRange r{label(*p, at::LowPc), label(*p, at::HighPc)};
                if (r.begin.empty() || r.end.empty())
                    v.unreadable = "its scope's code range is not given as two labels";
                v.scopes.push_back(std::move(r));
            }
        }
        if (!inFunction && d.tag == tag::FormalParameter)
            continue; // a declaration's parameter
        try {
            v.type = types.of(named);
            if (const DwarfAttribute* a = d.find(at::Location)) {
                if (a->block)
                    v.location = decodeLocation(*a->block);
                else if (a->symbol && a->symbol->symbol == ".debug_loc" && loc)
                    v.ranges = readLocationList(*loc, std::size_t(a->symbol->addend));
                else if (!a->symbol && loc)
                    v.ranges = readLocationList(*loc, std::size_t(a->number));
                else
                    v.unreadable = "its location list is not in .debug_loc";
            }
        } catch (const Error& e) {
            v.unreadable = e.what();
        }
        out.variables_.push_back(std::move(v));
    }
    return out;
}

} // namespace kw::dwarf
