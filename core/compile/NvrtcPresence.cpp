#include "compile/NvrtcPresence.hpp"

#include "compile/NvrtcLibrary.hpp"
#include "compile/NvrtcSearchOrder.hpp"
#include "util/DynamicLibrary.hpp"

namespace kw {

NvrtcPresence NvrtcPresence::check() { return check(NvrtcLibrary::candidateNames()); }

NvrtcPresence NvrtcPresence::check(const std::vector<std::string>& candidates)
{
    NvrtcPresence presence;
    for (const auto& name : candidates) {
        const DynamicLibrary lib = DynamicLibrary::openFirst({name}, &presence.tried);
        if (lib.isLoaded()) {
            presence.found = true;
            presence.path = lib.filePath();
            return presence;
        }
    }
    presence.installHint = NvrtcSearchOrder::installHint();
    return presence;
}

} // namespace kw
