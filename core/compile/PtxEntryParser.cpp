#include "compile/PtxEntryParser.hpp"

#include "compile/PtxModuleOutline.hpp"

namespace kw {

std::vector<PtxEntry> parsePtxEntries(std::string_view ptx)
{
    std::vector<PtxEntry> entries;
    for (const ptx::PtxFunctionOutline& f : ptx::PtxModuleOutline::read(ptx).functions) {
        if (!f.isEntry)
            continue;
        PtxEntry& e = entries.emplace_back();
        e.name = f.name;
        for (const ptx::PtxDeclaration& d : f.params) {
            const std::size_t element = d.elementBytes();
            PtxParam& p = e.params.emplace_back();
            // An absurd size stays absurd rather than wrapping round to a plausible one.
            p.size = std::size_t(d.bytes(d.names[0]).value_or(~std::uint64_t(0)));
            p.align = d.align ? std::size_t(*d.align) : element; // a .ptr's .align is its pointee's
            p.isPointerSized = d.names[0].dims.empty() && element == 8;
        }
    }
    return entries;
}

} // namespace kw
