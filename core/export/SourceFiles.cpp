#include "export/SourceFiles.hpp"

#include "compile/BuiltinHeaders.hpp"

#include <filesystem>

namespace kw::exporting {

ExportFiles SourceFiles::files(const ExportPlan& plan, bool builtinHeaders)
{
    ExportFiles out;
    out.push_back({plan.source().fileName, plan.source().text});
    for (const auto& [path, text] : plan.source().headers)
        out.push_back({path, text});
    if (builtinHeaders)
        for (const auto& h : BuiltinHeaders::all())
            out.push_back({std::string(kBuiltinFolder) + "/" + h.name, h.text});
    return out;
}

std::vector<std::string> SourceFiles::nvccIncludeOptions(const ExportPlan& plan)
{
    std::vector<std::string> dirs;
    const std::string sourceDir = std::filesystem::path(plan.source().fileName).parent_path().generic_string();
    dirs.push_back(sourceDir.empty() ? "." : sourceDir);
    if (!sourceDir.empty())
        dirs.push_back(".");
    for (const auto& d : plan.document().options.includeDirs)
        if (std::filesystem::path(d).is_relative())
            dirs.push_back(d);
    return dirs;
}

std::vector<std::string> SourceFiles::nvrtcIncludeOptions(const ExportPlan& plan)
{
    std::vector<std::string> dirs{kBuiltinFolder};
    for (const auto& d : nvccIncludeOptions(plan))
        dirs.push_back(d);
    return dirs;
}

} // namespace kw::exporting
