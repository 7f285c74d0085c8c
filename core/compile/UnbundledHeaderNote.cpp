#include "compile/UnbundledHeaderNote.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace kw {

namespace {

// Headers that come with the CUDA Toolkit and that NVIDIA's licence (CUDA EULA,
// Attachment A) does not list as redistributable, by name or by prefix.
constexpr std::array<std::string_view, 18> kToolkitPrefixes = {
    "cuda_bf16.",
    "cuda_fp8.",
    "cuda_fp6.",
    "cuda_fp4.",
    "cuda_pipeline",
    "cuda_awbarrier",
    "cooperative_groups",
    "curand",
    "cuComplex.h",
    "mma.h",
    "sm_",
    "crt/",
    "cuda/pipeline",
    "cuda/annotated_ptr",
    "cub/",
    "thrust/",
    "vector_types.h",
    "cuda_runtime",
};

std::string_view packageFor(std::string_view header)
{
    if (header.rfind("curand", 0) == 0)
        return "libcurand-dev-13-0";
    if (header.rfind("cuda/", 0) == 0 || header.rfind("cub/", 0) == 0 || header.rfind("thrust/", 0) == 0)
        return "cuda-cccl-13-0";
    return "cuda-cudart-dev-13-0";
}

} // namespace

bool isToolkitDeviceHeader(std::string_view header)
{
    for (auto prefix : kToolkitPrefixes)
        if (header.substr(0, prefix.size()) == prefix)
            return true;
    return false;
}

std::string unbundledToolkitHeader(const std::string& message)
{
    constexpr std::string_view lead = "cannot open source file \"";
    const auto at = message.find(lead);
    if (at == std::string::npos)
        return {};
    const auto start = at + lead.size();
    const auto end = message.find('"', start);
    if (end == std::string::npos)
        return {};
    const std::string header = message.substr(start, end - start);
    return isToolkitDeviceHeader(header) ? header : std::string();
}

void addUnbundledHeaderNote(Diagnostic& d, const std::vector<std::filesystem::path>& toolkitDirs)
{
    const std::string header = unbundledToolkitHeader(d.message);
    if (header.empty())
        return;
    // With a whole toolkit found (not only the headers the packages carry), a header it
    // does not have is not the toolkit's (a path into a project's own copy of cub, say):
    // installing the toolkit would not help.
    std::error_code ec;
    const auto has = [&](const std::string& name) {
        return std::any_of(toolkitDirs.begin(), toolkitDirs.end(),
                           [&](const std::filesystem::path& dir) { return std::filesystem::exists(dir / name, ec); });
    };
    if (has("cuda_runtime.h") && !has(header))
        return;
    d.notes.push_back(header
                      + " is part of the CUDA Toolkit, whose licence does not let Kernel Workbench include it: "
                        "install the toolkit's headers (NVIDIA's package "
                      + std::string(packageFor(header))
                      + ") and set KWB_CUDA_INCLUDE to their folder, e.g. /usr/local/cuda/include");
}

} // namespace kw
