#include "compile/HostHeaderStandIns.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/SourceLexer.hpp"
#include "compile/UnbundledHeaderNote.hpp"

#include <algorithm>
#include <set>

namespace kw {

namespace fs = std::filesystem;

namespace {

// `#include <name>` -> name; empty for anything else (quoted, computed).
std::string angleInclude(std::string_view directive)
{
    std::size_t p = directive.find_first_not_of(" \t", 1);
    if (p == std::string_view::npos || directive.substr(p, 7) != "include")
        return {};
    p = directive.find_first_not_of(" \t", p + 7);
    if (p == std::string_view::npos || directive[p] != '<')
        return {};
    const std::size_t end = directive.find('>', p + 1);
    if (end == std::string_view::npos)
        return {};
    return std::string(directive.substr(p + 1, end - p - 1));
}

bool isBuiltin(const std::string& name)
{
    const auto& all = BuiltinHeaders::all();
    return std::any_of(all.begin(), all.end(), [&](const BuiltinHeaders::Header& h) { return h.name == name; });
}

bool foundIn(const std::string& name, const std::vector<fs::path>& dirs)
{
    std::error_code ec;
    return std::any_of(dirs.begin(), dirs.end(), [&](const fs::path& d) { return fs::exists(d / name, ec); });
}

} // namespace

HostHeaderStandIns HostHeaderStandIns::find(std::string_view source, const std::string& sourceName,
                                            const std::vector<IncludedFile>& files,
                                            const std::vector<fs::path>& searchDirs)
{
    HostHeaderStandIns out;
    std::set<std::string> given;
    const auto scan = [&](std::string_view text, const std::string& file) {
        for (const SourceToken& t : lexSource(text)) {
            if (t.kind != SourceToken::Kind::Directive)
                continue;
            const std::string name = angleInclude(t.text);
            if (name.empty() || name.find("..") != std::string::npos || isBuiltin(name) || isToolkitDeviceHeader(name)
                || foundIn(name, searchDirs))
                continue;
            if (given.insert(name).second)
                out.headers.push_back({name, "// <" + name + ">: a host header, empty in the device compile\n"});
            out.notes.push_back(Diagnostic{file, t.line, t.column, Severity::Note,
                                           "<" + name + "> is not a header device code can use (found nowhere the "
                                           "device compile looks): compiled as empty; only host code may use it",
                                           {}, {}});
        }
    };
    scan(source, sourceName);
    for (const IncludedFile& f : files)
        if (!f.path.empty() && !f.notRegular)
            scan(f.contents, f.path.string());
    return out;
}

} // namespace kw
