#include "compile/KernelFootprint.hpp"

#include "compile/PtxResources.hpp"
#include "compile/PtxasReportParser.hpp"

namespace kw {

KernelFootprint KernelFootprint::of(const CompileResult& r, const std::string& loweredName)
{
    KernelFootprint f;
    for (KernelResources& k : parsePtxasReport(r.log)) {
        if (loweredName.empty() || k.entry == loweredName) {
            f.ptxas = std::move(k);
            break;
        }
    }
    if (!r.ok || r.ptx.empty())
        return f;
    // Module-scope .shared counts for every kernel of the module.
    for (const PtxResources& p : PtxResources::parse(r.ptx)) {
        if (p.entry.empty()) {
            f.staticShared += p.sharedBytes;
        } else if (!f.declared && (loweredName.empty() || p.entry == loweredName)) {
            f.declared = true;
            f.staticShared += p.sharedBytes;
            f.localBytes = p.localBytes;
            f.virtualRegisters = p.registers32;
        }
    }
    return f;
}

std::string KernelFootprint::loweredName(const CompileResult& r, const std::string& kernel)
{
    if (auto it = r.loweredNames.find(kernel); it != r.loweredNames.end())
        return it->second;
    // Itanium mangling starts with the name's length and the name.
    const std::string base = kernel.substr(0, kernel.find('<'));
    const std::string mangled = std::to_string(base.size()) + base;
    for (const PtxEntry& e : r.entries)
        if (e.name == base || e.name.find(mangled) != std::string::npos)
            return e.name;
    return {};
}

} // namespace kw
