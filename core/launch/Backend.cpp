#include "launch/Backend.hpp"

#include "util/ArchName.hpp"
#include "util/Error.hpp"

namespace kw {

std::unique_ptr<ResidentBuffers> Backend::residentBuffers()
{
    throw Error(ErrorCategory::Usage, "the " + device().id + " backend cannot keep buffers between launches");
}

std::string Backend::archFor(const std::string& documentArch) const
{
    if (documentArch.empty())
        return compileArch();
    const ArchName asked = ArchName::parse(documentArch);
    if (!asked.valid())
        throw Error(ErrorCategory::Document,
                    "options.arch \"" + documentArch + "\" is not an architecture (sm_90, compute_75, ...)");
    const ArchName own = ArchName::parse(compileArch());
    if (!own.real) // PTX is what this backend runs
        return asked.ptxName();
    const DeviceInfo d = device();
    const std::string where = d.id + " (" + d.name + ") is " + compileArch();
    if (asked.number > own.number)
        throw Error(ErrorCategory::Limit,
                    "the document is for " + documentArch + " (options.arch), but " + where
                        + ": code for a newer GPU cannot run on it");
    if (!asked.suffix.empty() && asked.number != own.number)
        throw Error(ErrorCategory::Limit,
                    "the document is for " + documentArch + " (options.arch), but " + where
                        + ": code with arch-specific features runs only on that arch");
    if (asked.real && asked.number == own.number)
        return documentArch;
    return asked.ptxName(); // an older arch, or PTX: the driver translates it for this GPU
}

} // namespace kw
