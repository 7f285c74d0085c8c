#include "compile/PtxResources.hpp"

#include "compile/PtxModuleOutline.hpp"

#include <algorithm>
#include <limits>
#include <optional>

namespace kw {

namespace {

using ptx::PtxDeclaration;

// Sizes held at the largest size_t instead of wrapping (hostile PTX may declare anything).
std::size_t saturatedSum(std::size_t a, std::optional<std::uint64_t> b)
{
    std::size_t r;
    if (!b || *b > std::numeric_limits<std::size_t>::max() || __builtin_add_overflow(a, std::size_t(*b), &r))
        return std::numeric_limits<std::size_t>::max();
    return r;
}

void countRegisters(PtxResources& r, const PtxDeclaration& d)
{
    if (d.type.empty())
        return;
    for (const auto& name : d.names) {
        const int count = int(std::min<std::uint64_t>(name.registers.value_or(1), 1 << 24));
        r.registers[d.type] += count;
        if (d.type != ".pred")
            r.registers32 += count * (PtxDeclaration::typeBytes(d.type) > 4 ? 2 : 1);
    }
}

void countMemory(PtxResources& r, const PtxDeclaration& d)
{
    for (const auto& name : d.names) {
        const std::optional<std::uint64_t> bytes = d.bytes(name);
        if (d.space == ".shared") {
            if (d.isExtern || name.unsized())
                r.dynamicShared = true;
            else
                r.sharedBytes = saturatedSum(r.sharedBytes, bytes);
        } else if (d.space == ".local") {
            r.localBytes = saturatedSum(r.localBytes, bytes);
        } else if (d.space == ".const") {
            r.constBytes = saturatedSum(r.constBytes, bytes);
        }
    }
}

} // namespace

std::vector<PtxResources> PtxResources::parse(std::string_view ptx)
{
    const ptx::PtxModuleOutline outline = ptx::PtxModuleOutline::read(ptx);
    PtxResources module;
    std::vector<PtxResources> entries;
    for (const PtxDeclaration& v : outline.variables)
        countMemory(module, v);
    for (const ptx::PtxFunctionOutline& f : outline.functions) {
        // A device function's variables count at module scope; its registers are not a kernel's.
        if (!f.isEntry) {
            for (const auto& b : f.body)
                countMemory(module, b.declaration);
            continue;
        }
        PtxResources& e = entries.emplace_back();
        e.entry = f.name;
        e.params = int(f.params.size());
        for (const auto& b : f.body) {
            if (b.declaration.space == ".reg")
                countRegisters(e, b.declaration);
            else
                countMemory(e, b.declaration);
        }
    }
    if (module.sharedBytes || module.constBytes || module.localBytes || module.dynamicShared)
        entries.insert(entries.begin(), module);
    return entries;
}

} // namespace kw
