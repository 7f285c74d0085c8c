#include "compile/FixedWidthTypes.hpp"

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

namespace {

// The offsets of line `line` (1-based) of `text`, its line break excluded (and a '\r' before it).
std::optional<std::pair<std::size_t, std::size_t>> lineSpan(const std::string& text, int line)
{
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
    return std::pair{begin, end};
}

} // namespace

std::optional<Diagnostic> FixedWidthTypes::includeInPlace(std::string& text, const std::string& sourceName,
                                                          const std::vector<Diagnostic>& diagnostics,
                                                          const std::vector<int>& blanked,
                                                          const std::vector<int>& standIns)
{
    const std::string name = undefinedName(diagnostics);
    if (name.empty())
        return std::nullopt;
    std::optional<std::pair<std::size_t, std::size_t>> at;
    int line = 0;
    const auto consider = [&](int l, bool mustBeBlank) {
        const auto span = lineSpan(text, l);
        if (!span || (line && l >= line))
            return;
        if (mustBeBlank && text.find_first_not_of(" \t", span->first) < span->second)
            return;
        at = span;
        line = l;
    };
    for (int l : blanked)
        consider(l, true);
    for (int l : standIns)
        consider(l, false);
    if (!at)
        return std::nullopt;
    text.replace(at->first, at->second - at->first, "#include <stdint.h>");
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
