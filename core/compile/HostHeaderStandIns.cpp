#include "compile/HostHeaderStandIns.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/IncludeDirective.hpp"
#include "compile/SourceLexer.hpp"
#include "compile/UnbundledHeaderNote.hpp"

#include <algorithm>
#include <set>

namespace kw {

namespace fs = std::filesystem;

namespace {

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
            const IncludeDirective inc = IncludeDirective::read(t.text);
            const std::string& name = inc.name;
            if (!inc.isPlainInclude() || inc.quoted || name.find("..") != std::string::npos || BuiltinHeaders::has(name)
                || isToolkitDeviceHeader(name) || foundIn(name, searchDirs))
                continue;
            if (given.insert(name).second)
                out.headers.push_back({name, "// <" + name + ">: a host header, empty in the device compile\n"});
            out.notes.push_back(Diagnostic{file,
                                           t.line,
                                           t.column,
                                           Severity::Note,
                                           "<" + name
                                               + "> is not a header device code can use (found nowhere the "
                                                 "device compile looks): compiled as empty; only host code may use it",
                                           {},
                                           {}});
        }
    };
    scan(source, sourceName);
    for (const IncludedFile& f : files)
        if (!f.path.empty() && !f.notRegular)
            scan(f.contents, f.path.string());
    return out;
}

} // namespace kw
