#include "compile/PtxSourceName.hpp"

#include <filesystem>

namespace kw {

std::string PtxSourceName::restore(std::string ptx, const std::string& compiledAs, const std::string& sourceName)
{
    if (compiledAs == sourceName)
        return ptx;
    const std::string quoted = '"' + compiledAs + '"';
    for (std::size_t at = ptx.find(".file"); at != std::string::npos; at = ptx.find(".file", at + 1)) {
        if (at > 0 && ptx[at - 1] != '\n' && ptx[at - 1] != '\t' && ptx[at - 1] != ' ')
            continue; // ".file" inside a longer word
        const std::size_t end = ptx.find('\n', at);
        const std::size_t name = ptx.find(quoted, at);
        if (name == std::string::npos || (end != std::string::npos && name > end))
            continue;
        ptx.replace(name, quoted.size(), '"' + sourceName + '"');
    }
    return ptx;
}

std::string PtxSourceName::compiledPath(const std::string& sourceName)
{
    std::error_code ec;
    const std::filesystem::path here = std::filesystem::current_path(ec);
    return ec ? sourceName : (here / sourceName).generic_string();
}

} // namespace kw
