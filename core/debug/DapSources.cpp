#include "debug/DapSources.hpp"

#include "util/JsonField.hpp"

namespace kw::debug {

namespace fs = std::filesystem;

namespace {

std::string fileName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

fs::path normal(const fs::path& p)
{
    std::error_code ec;
    const fs::path out = fs::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : out;
}

} // namespace

DapSources::DapSources(fs::path folder, const std::string& sourceFile, std::string sourceName, std::string sourceText)
    : folder_(std::move(folder))
    , sourceName_(std::move(sourceName))
    , sourceText_(std::move(sourceText))
{
    if (!sourceFile.empty())
        mainPath_ = normal(fs::path(sourceFile).is_absolute() ? fs::path(sourceFile) : folder_ / sourceFile);
}

bool DapSources::isMain(const std::string& file) const { return fileName(file) == fileName(sourceName_); }

nlohmann::json DapSources::source(const std::string& file) const
{
    if (isMain(file)) {
        if (!mainPath_.empty())
            return {{"name", fileName(sourceName_)}, {"path", mainPath_.string()}};
        return {{"name", fileName(sourceName_)},
                {"sourceReference", kInlineSource},
                {"origin", "the document's inline source"}};
    }
    std::error_code ec;
    const fs::path p = fs::path(file).is_absolute() ? fs::path(file) : folder_ / file;
    if (fs::is_regular_file(p, ec))
        return {{"name", fileName(file)}, {"path", normal(p).string()}};
    return {{"name", fileName(file)}, {"presentationHint", "deemphasize"}};
}

std::string DapSources::breakpointFile(const nlohmann::json& source) const
{
    if (JsonField::get<int>(source, "sourceReference", 0) == kInlineSource)
        return {};
    const std::string path = JsonField::get<std::string>(source, "path", "");
    if (path.empty())
        return JsonField::get<std::string>(source, "name", "");
    if (!mainPath_.empty() && normal(path) == mainPath_)
        return {};
    return path;
}

std::string DapSources::key(const nlohmann::json& source) const
{
    const std::string file = breakpointFile(source);
    return file.empty() ? std::string("\n(the kernel's source)") : normal(file).string();
}

std::optional<std::string> DapSources::content(int reference) const
{
    if (reference == kInlineSource)
        return sourceText_;
    return std::nullopt;
}

} // namespace kw::debug
