#include "compile/FixedWidthTypes.hpp"

#include <algorithm>
#include <regex>

namespace kw {

std::string FixedWidthTypes::undefinedName(const std::vector<Diagnostic>& diagnostics)
{
    static const std::regex undefined(R"re(^identifier "([A-Za-z0-9_]+)" is undefined$)re");
    static const std::regex stdintName(
        R"(^u?int(_least|_fast)?(8|16|32|64)_t$|^u?int(ptr|max)_t$|^U?INT(_LEAST|_FAST)?(8|16|32|64)_(MAX|MIN)$)"
        R"(|^U?INT(8|16|32|64|MAX)_C$|^U?INT(PTR|MAX)_(MAX|MIN)$|^SIZE_MAX$)");
    for (const Diagnostic& d : diagnostics) {
        std::smatch m;
        if (d.severity == Severity::Error && std::regex_match(d.message, m, undefined)
            && std::regex_match(m[1].str(), stdintName))
            return m[1].str();
    }
    return {};
}

std::optional<Diagnostic> FixedWidthTypes::includeInPlace(std::string& text, const std::string& sourceName,
                                                          const std::vector<Diagnostic>& diagnostics,
                                                          const std::vector<int>& leftOut)
{
    const std::string name = undefinedName(diagnostics);
    if (name.empty() || leftOut.empty())
        return std::nullopt;
    const int line = *std::min_element(leftOut.begin(), leftOut.end());
    std::size_t begin = 0;
    for (int l = 1; l < line; ++l) {
        begin = text.find('\n', begin);
        if (begin == std::string::npos)
            return std::nullopt;
        ++begin;
    }
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos)
        end = text.size();
    if (end > begin && text[end - 1] == '\r') // a Windows file keeps its line ends
        --end;
    text.replace(begin, end - begin, "#include <stdint.h>");
    return Diagnostic{sourceName,
                      line,
                      1,
                      Severity::Note,
                      "device code uses " + name
                          + ", which no header it can see declares; under nvcc a host header brings it (as "
                            "<iostream> does, through <cstdint>): <stdint.h> is compiled in this line's place",
                      {},
                      {}};
}

} // namespace kw
