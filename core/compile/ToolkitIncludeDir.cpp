#include "compile/ToolkitIncludeDir.hpp"

#include "util/Paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace kw {

namespace fs = std::filesystem;

fs::path toolkitIncludeDir()
{
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("KWB_CUDA_INCLUDE"); env && *env)
        candidates.emplace_back(env);
    try {
        candidates.push_back(executableDir() / ".." / "share" / "kernel-workbench" / "cuda-include");
    } catch (const std::exception&) {
        // No executable path: the other places still apply.
    }
#ifdef KW_CUDA_INCLUDE_DIR
    // CMake may hand over a list ("a;b").
    std::string_view built = KW_CUDA_INCLUDE_DIR;
    for (std::size_t start = 0; start <= built.size();) {
        std::size_t end = std::min(built.find(';', start), built.size());
        if (end > start)
            candidates.emplace_back(built.substr(start, end - start));
        start = end + 1;
    }
#endif
    candidates.emplace_back("/usr/local/cuda/include");
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::is_regular_file(c / "cuda_fp16.h", ec))
            return fs::weakly_canonical(c, ec);
    }
    return {};
}

} // namespace kw
