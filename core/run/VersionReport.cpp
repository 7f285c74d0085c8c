#include "run/VersionReport.hpp"

#include "compile/NvrtcLibrary.hpp"
#include "compile/ToolkitIncludeDir.hpp"
#include "cuda/DriverApi.hpp"

#include "kw/BuildInfo.hpp" // generated: KW_BUILD_VERSION, KW_BUILD_GIT_REVISION

#include <algorithm>
#include <exception>

namespace kw {

namespace {

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string nvrtcLine()
{
    try {
        const NvrtcLibrary& nv = NvrtcLibrary::instance();
        return nv.version() + " (" + nv.origin() + ", " + nv.path() + ")";
    } catch (const std::exception& e) {
        return "not found (" + firstLine(e.what()) + ")";
    }
}

std::string driverLine()
{
    try {
        if (!cuda::DriverApi::available())
            return "not found (" + firstLine(cuda::DriverApi::unavailableReason()) + ")";
        const cuda::DriverApi& d = cuda::DriverApi::get();
        const int v = d.driverVersion();
        return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) + " (" + d.libraryName() + ")";
    } catch (const std::exception& e) {
        return "not found (" + firstLine(e.what()) + ")";
    }
}

} // namespace

std::string VersionReport::version() { return KW_BUILD_VERSION; }
std::string VersionReport::gitRevision() { return KW_BUILD_GIT_REVISION; }
std::string VersionReport::licence()
{
    return "GPL-3.0-or-later, with an additional permission to combine it with NVIDIA's CUDA driver, NVRTC and "
           "device headers (LICENSE); NVIDIA's files keep NVIDIA's licence";
}

std::vector<VersionReport::Line> VersionReport::collect()
{
    std::vector<Line> lines;
    lines.emplace_back("version", version());
    lines.emplace_back("git revision", gitRevision());
    lines.emplace_back("NVRTC", nvrtcLine());
    const auto headers = toolkitIncludeDir();
    lines.emplace_back("CUDA headers",
                       headers.empty() ? "not found (only the built-in standard headers)" : headers.string());
    lines.emplace_back("driver", driverLine());
    lines.emplace_back("licence", licence());
    return lines;
}

std::string VersionReport::format(const std::vector<Line>& lines)
{
    std::size_t width = 0;
    for (const auto& l : lines)
        width = std::max(width, l.first.size());
    std::string out;
    for (const auto& l : lines)
        out += l.first + ":" + std::string(width - l.first.size() + 1, ' ') + l.second + "\n";
    return out;
}

} // namespace kw
