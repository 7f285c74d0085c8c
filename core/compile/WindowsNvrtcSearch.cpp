#include "compile/WindowsNvrtcSearch.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace kw {

namespace fs = std::filesystem;

namespace {

// NVRTC's major and minor versions this build can use, newest first.
constexpr std::pair<int, int> kVersions[] = {{13, 0}, {12, 0}, {11, 2}};

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::optional<std::string> variable(const WindowsNvrtcPlaces& places, const std::string& name)
{
    const std::string wanted = lower(name);
    for (const auto& [n, v] : places.environment)
        if (lower(n) == wanted && !v.empty())
            return v;
    return std::nullopt;
}

// "v13.0", "V12_4", "13.0": major * 100 + minor, or -1.
int versionOf(std::string_view text)
{
    while (!text.empty() && !std::isdigit(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    int major = 0, minor = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), major);
    if (ec != std::errc() || p == text.data() + text.size() || (*p != '.' && *p != '_'))
        return -1;
    ++p;
    auto [q, ec2] = std::from_chars(p, text.data() + text.size(), minor);
    return ec2 == std::errc() ? major * 100 + minor : -1;
}

// The registry's InstallDir ends in the version ("...\CUDA\v13.0").
int versionOfFolder(const std::string& folder)
{
    std::string name = fs::path(folder).filename().string();
    if (name.empty())
        name = fs::path(folder).parent_path().filename().string();
    return versionOf(name);
}

void addToolkit(std::vector<std::pair<fs::path, std::string>>& out, const fs::path& root, const std::string& place)
{
    out.emplace_back(root / "bin" / "x64", place);
    out.emplace_back(root / "bin", place);
}

std::vector<std::string> splitPath(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = std::min(path.find(';', start), path.size());
        std::string part = path.substr(start, end - start);
        if (part.size() >= 2 && part.front() == '"' && part.back() == '"')
            part = part.substr(1, part.size() - 2);
        if (!part.empty())
            parts.push_back(part);
        start = end + 1;
    }
    return parts;
}

// Folders compare without case and without a trailing separator, as Windows does.
std::string folderKey(const fs::path& folder)
{
    std::string s = lower(folder.lexically_normal().string());
    std::replace(s.begin(), s.end(), '/', '\\');
    while (s.size() > 1 && s.back() == '\\')
        s.pop_back();
    return s;
}

} // namespace

std::vector<std::pair<fs::path, std::string>> WindowsNvrtcSearch::folders(const WindowsNvrtcPlaces& places)
{
    std::vector<std::pair<fs::path, std::string>> out;
    if (!places.executableDir.empty()) {
        out.emplace_back(places.executableDir, "beside the executable");
        out.emplace_back((places.executableDir / ".." / "nvidia").lexically_normal(), "the installer's NVIDIA folder");
    }
    if (auto cuda = variable(places, "CUDA_PATH"))
        addToolkit(out, *cuda, "CUDA_PATH");

    std::vector<std::pair<int, std::pair<std::string, std::string>>> versioned;
    for (const auto& [name, value] : places.environment) {
        const std::string n = lower(name);
        if (n.rfind("cuda_path_v", 0) == 0 && !value.empty())
            if (int v = versionOf(n.substr(std::string("cuda_path_v").size())); v >= 0)
                versioned.push_back({v, {name, value}});
    }
    std::stable_sort(versioned.begin(), versioned.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [v, entry] : versioned)
        addToolkit(out, entry.second, entry.first);

    std::vector<std::pair<int, std::string>> registry;
    for (const auto& dir : places.registryToolkits)
        registry.emplace_back(versionOfFolder(dir), dir);
    std::stable_sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [v, dir] : registry)
        addToolkit(out, dir, "the registry's CUDA Toolkit " + fs::path(dir).filename().string());

    if (auto path = variable(places, "PATH"))
        for (const auto& dir : splitPath(*path))
            out.emplace_back(dir, "PATH");

    std::vector<std::pair<fs::path, std::string>> unique;
    std::vector<std::string> seen;
    for (auto& entry : out) {
        std::string key = folderKey(entry.first);
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            continue;
        seen.push_back(std::move(key));
        unique.push_back(std::move(entry));
    }
    return unique;
}

std::vector<WindowsNvrtcDll> WindowsNvrtcSearch::find(const WindowsNvrtcPlaces& places, const FileExists& exists)
{
    std::vector<WindowsNvrtcDll> found;
    for (const auto& [dir, place] : folders(places)) {
        for (const auto& [major, minor] : kVersions) {
            const std::string mm = std::to_string(major) + std::to_string(minor);
            const fs::path nvrtc = dir / ("nvrtc64_" + mm + "_0.dll");
            if (!exists(nvrtc))
                continue;
            // The builtins carry the toolkit's minor version (12.4: nvrtc-builtins64_124.dll),
            // while NVRTC itself is named for the first release of its major version.
            for (int m = 9; m >= minor; --m) {
                const fs::path builtins
                    = dir / ("nvrtc-builtins64_" + std::to_string(major) + std::to_string(m) + ".dll");
                if (exists(builtins)) {
                    found.push_back({nvrtc, builtins, place});
                    break;
                }
            }
        }
    }
    return found;
}

std::string WindowsNvrtcSearch::installHint()
{
    return "Kernels need NVIDIA's runtime compiler (NVRTC) to compile; everything else works without it. "
           "Install the CUDA Toolkit 13 (its \"nvrtc\" component is enough), or set KWB_NVRTC to the path of "
           "nvrtc64_130_0.dll. An installer built with NVIDIA's files has them in its \"NVIDIA runtime "
           "compiler\" component";
}

} // namespace kw
