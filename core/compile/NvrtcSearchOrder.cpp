#include "compile/NvrtcSearchOrder.hpp"

#include "util/Paths.hpp"

#include <cstdlib>
#include <cstring>
#include <system_error>

namespace kw {

namespace fs = std::filesystem;

namespace {

std::string environmentChoice()
{
    const char* env = std::getenv("KWB_NVRTC");
    return env ? env : "";
}

bool sameFile(const fs::path& a, const fs::path& b)
{
    std::error_code ec;
    return fs::equivalent(a, b, ec);
}

void addFolder(std::vector<NvrtcCandidate>& out, const fs::path& dir, NvrtcCandidate::Origin origin)
{
    if (dir.empty())
        return;
    for (const auto& n : NvrtcSearchOrder::libraryNames()) {
        fs::path p = dir / n;
        out.push_back({p.string(), origin});
    }
}

void addSystem(std::vector<NvrtcCandidate>& out)
{
    for (const auto& n : NvrtcSearchOrder::libraryNames())
        out.push_back({n, NvrtcCandidate::Origin::System});
#ifdef KW_CUDA_LIBRARY_DIR
    addFolder(out, KW_CUDA_LIBRARY_DIR, NvrtcCandidate::Origin::System);
#endif
#ifdef _WIN32
    // The toolkit's installer sets CUDA_PATH; its DLLs are in bin\x64 since CUDA 13.
    if (const char* cuda = std::getenv("CUDA_PATH"); cuda && *cuda) {
        addFolder(out, fs::path(cuda) / "bin" / "x64", NvrtcCandidate::Origin::System);
        addFolder(out, fs::path(cuda) / "bin", NvrtcCandidate::Origin::System);
    }
#endif
}

} // namespace

std::vector<std::string> NvrtcSearchOrder::libraryNames()
{
#ifdef _WIN32
    return {"nvrtc64_130_0.dll", "nvrtc64_120_0.dll", "nvrtc64_112_0.dll"};
#elif defined(__APPLE__)
    return {"libnvrtc.dylib"};
#else
    return {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
#endif
}

fs::path NvrtcSearchOrder::bundledDir()
{
    try {
#ifdef _WIN32
        return executableDir();
#else
        return (executableDir() / ".." / "lib" / "kernel-workbench").lexically_normal();
#endif
    } catch (const std::exception&) {
        return {}; // no executable path (unusual embedding): the other places still apply
    }
}

std::vector<std::string> NvrtcSearchOrder::companionsOf(const fs::path& path)
{
    std::vector<std::string> found;
    if (!path.has_parent_path())
        return found; // a bare soname: the loader's search finds both
#if !defined(_WIN32) && !defined(__APPLE__)
    // libnvrtc.so.13 opens libnvrtc-builtins.so.13.<minor>; the ".alt" variants are another pair.
    std::error_code ec;
    for (fs::directory_iterator it(path.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("libnvrtc-builtins.so.", 0) == 0 && name.find(".alt") == std::string::npos)
            found.push_back(it->path().string());
    }
#else
    (void)path; // Windows finds nvrtc-builtins64_*.dll beside nvrtc64_*.dll itself
#endif
    return found;
}

std::vector<NvrtcCandidate> NvrtcSearchOrder::candidates()
{
    std::vector<NvrtcCandidate> out;
    const std::string env = environmentChoice();
    const bool systemFirst = env == "system";
    if (!env.empty() && !systemFirst)
        out.push_back({env, NvrtcCandidate::Origin::Environment});
    if (systemFirst)
        addSystem(out);
    addFolder(out, bundledDir(), NvrtcCandidate::Origin::Bundled);
    if (!systemFirst)
        addSystem(out);
    return out;
}

std::string NvrtcSearchOrder::originOf(const std::string& path)
{
    const std::string env = environmentChoice();
    if (!env.empty() && env != "system" && (env == path || sameFile(env, path)))
        return toString(NvrtcCandidate::Origin::Environment);
    const fs::path dir = bundledDir();
    if (!dir.empty() && sameFile(fs::path(path).parent_path(), dir))
        return toString(NvrtcCandidate::Origin::Bundled);
    return toString(NvrtcCandidate::Origin::System);
}

const char* NvrtcSearchOrder::toString(NvrtcCandidate::Origin origin)
{
    switch (origin) {
    case NvrtcCandidate::Origin::Environment: return "KWB_NVRTC";
    case NvrtcCandidate::Origin::Bundled: return "bundled";
    case NvrtcCandidate::Origin::System: break;
    }
    return "system";
}

} // namespace kw
