#include "run/ComputeSanitizerLocator.hpp"

#include "util/Error.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace kw {

namespace fs = std::filesystem;

namespace {

std::string environment(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

#ifdef _WIN32
constexpr char kPathSeparator = ';';
#else
constexpr char kPathSeparator = ':';
#endif

std::vector<fs::path> splitPath(const std::string& value)
{
    std::vector<fs::path> out;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t end = std::min(value.find(kPathSeparator, start), value.size());
        if (end > start) // an empty entry would mean the working folder: never look there
            out.emplace_back(value.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

#ifndef _WIN32
// "cuda-12.4" -> {12, 4}, for newest-first order; not a version: empty.
std::vector<int> versionOf(const std::string& folderName)
{
    std::vector<int> parts;
    if (folderName.rfind("cuda-", 0) != 0)
        return parts;
    int value = -1;
    for (std::size_t i = 5; i < folderName.size(); ++i) {
        const char c = folderName[i];
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
        } else if (c == '.' && value >= 0) {
            parts.push_back(value);
            value = -1;
        } else {
            return {};
        }
    }
    if (value >= 0)
        parts.push_back(value);
    return parts;
}

std::vector<fs::path> versionedToolkits(const fs::path& parent)
{
    std::vector<std::pair<std::vector<int>, fs::path>> found;
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const auto version = versionOf(it->path().filename().string());
        if (!version.empty())
            found.emplace_back(version, it->path());
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<fs::path> out;
    for (auto& f : found)
        out.push_back(std::move(f.second));
    return out;
}
#endif

bool isExecutableFile(const fs::path& p)
{
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        return false;
#ifdef _WIN32
    return true;
#else
    return ::access(p.c_str(), X_OK) == 0;
#endif
}

} // namespace

SanitizerSearch SanitizerSearch::fromEnvironment()
{
    SanitizerSearch s;
    s.explicitPath = environment("KWB_COMPUTE_SANITIZER");
    s.pathVariable = environment("PATH");
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const std::string v = environment(var); !v.empty())
            s.toolkits.emplace_back(v);
#ifndef _WIN32
    s.toolkits.emplace_back("/usr/local/cuda");
    for (auto& p : versionedToolkits("/usr/local"))
        s.toolkits.push_back(std::move(p));
    s.toolkits.emplace_back("/opt/cuda");
    s.folders.emplace_back("/opt/nvidia/compute-sanitizer");
#endif
    return s;
}

std::string ComputeSanitizerLocator::executableName()
{
#ifdef _WIN32
    return "compute-sanitizer.exe";
#else
    return "compute-sanitizer";
#endif
}

std::vector<fs::path> ComputeSanitizerLocator::candidates(const SanitizerSearch& search)
{
    const std::string name = executableName();
    std::vector<fs::path> all;
    if (!search.explicitPath.empty())
        all.emplace_back(search.explicitPath);
    for (const auto& dir : splitPath(search.pathVariable))
        all.push_back(dir / name);
    for (const auto& root : search.toolkits) {
        all.push_back(root / "bin" / name);
        all.push_back(root / "compute-sanitizer" / name); // where older toolkits keep it
    }
    for (const auto& dir : search.folders)
        all.push_back(dir / name);
    std::vector<fs::path> unique;
    std::set<fs::path> seen;
    for (auto& p : all)
        if (seen.insert(p.lexically_normal()).second)
            unique.push_back(std::move(p));
    return unique;
}

std::optional<fs::path> ComputeSanitizerLocator::find(const SanitizerSearch& search)
{
    for (const auto& p : candidates(search))
        if (isExecutableFile(p))
            return p;
    return std::nullopt;
}

fs::path ComputeSanitizerLocator::require(const SanitizerSearch& search)
{
    if (auto p = find(search))
        return *p;
    throw Error(ErrorCategory::Usage, notFoundMessage(search));
}

std::string ComputeSanitizerLocator::notFoundMessage(const SanitizerSearch& search)
{
    std::vector<std::string> places;
    if (!search.explicitPath.empty())
        places.push_back("KWB_COMPUTE_SANITIZER (" + search.explicitPath + ")");
    places.push_back(splitPath(search.pathVariable).empty() ? "PATH (empty)" : "the folders of PATH");
    for (const auto& root : search.toolkits) {
        places.push_back((root / "bin").string());
        places.push_back((root / "compute-sanitizer").string());
    }
    for (const auto& dir : search.folders)
        places.push_back(dir.string());
    std::string where;
    for (const auto& p : places)
        where += (where.empty() ? "" : ", ") + p;
    return "compute-sanitizer was not found (looked in " + where
        + "): install the CUDA Toolkit's compute-sanitizer (or set KWB_COMPUTE_SANITIZER to it), "
          "or use --device sim, whose checks need no GPU";
}

} // namespace kw
