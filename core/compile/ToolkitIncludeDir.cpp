#include "compile/ToolkitIncludeDir.hpp"

#include "compile/NvrtcSearchOrder.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace kw {

namespace fs = std::filesystem;

fs::path toolkitIncludeDir()
{
    std::vector<fs::path> toolkit;
#ifdef KW_CUDA_INCLUDE_DIR
    // CMake may hand over a list ("a;b").
    std::string_view built = KW_CUDA_INCLUDE_DIR;
    for (std::size_t start = 0; start <= built.size();) {
        std::size_t end = std::min(built.find(';', start), built.size());
        if (end > start)
            toolkit.emplace_back(built.substr(start, end - start));
        start = end + 1;
    }
#endif
    toolkit.emplace_back("/usr/local/cuda/include");
    // The headers of the package that carries NVRTC, beside it.
    fs::path bundled = NvrtcSearchOrder::nvidiaDir();
    if (!bundled.empty())
        bundled /= "include";

    // The headers follow NVRTC: the bundled ones match the bundled NVRTC, and a
    // user who picks another NVRTC (KWB_NVRTC) gets the toolkit's headers first.
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("KWB_CUDA_INCLUDE"); env && *env)
        candidates.emplace_back(env);
    const char* nvrtc = std::getenv("KWB_NVRTC");
    const bool toolkitFirst = nvrtc && *nvrtc;
    if (toolkitFirst)
        candidates.insert(candidates.end(), toolkit.begin(), toolkit.end());
    if (!bundled.empty())
        candidates.push_back(bundled);
    if (!toolkitFirst)
        candidates.insert(candidates.end(), toolkit.begin(), toolkit.end());
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::is_regular_file(c / "cuda_fp16.h", ec))
            return fs::weakly_canonical(c, ec);
    }
    return {};
}

} // namespace kw
