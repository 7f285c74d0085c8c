#include "compile/NvrtcSearchOrder.hpp"

#include "compile/WindowsNvrtcSearch.hpp"

#include "util/Paths.hpp"

#include <cstdlib>
#include <cstring>
#include <system_error>

#ifdef _WIN32
#include <windows.h>
#endif

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

#ifdef _WIN32
WindowsNvrtcPlaces windowsPlaces()
{
    WindowsNvrtcPlaces places;
    if (char* block = GetEnvironmentStringsA()) {
        for (const char* entry = block; *entry; entry += std::strlen(entry) + 1) {
            const char* eq = std::strchr(entry + 1, '='); // names like "=C:" begin with '='
            if (eq)
                places.environment.emplace_back(std::string(entry, eq), std::string(eq + 1));
        }
        FreeEnvironmentStringsA(block);
    }
    HKEY key = nullptr;
    if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA", 0,
                      KEY_READ | KEY_WOW64_64KEY, &key)
        == ERROR_SUCCESS) {
        char name[256];
        for (DWORD i = 0;; ++i) {
            DWORD size = sizeof name;
            if (RegEnumKeyExA(key, i, name, &size, nullptr, nullptr, nullptr, nullptr) != ERROR_SUCCESS)
                break;
            char dir[1024];
            DWORD bytes = sizeof dir;
            if (RegGetValueA(key, name, "InstallDir", RRF_RT_REG_SZ, nullptr, dir, &bytes) == ERROR_SUCCESS)
                places.registryToolkits.emplace_back(dir);
        }
        RegCloseKey(key);
    }
    try {
        places.executableDir = executableDir();
    } catch (const std::exception&) {
        // No executable path: the other places still apply.
    }
    return places;
}

void addWindowsFolders(std::vector<NvrtcCandidate>& out, bool bundled)
{
    const auto found = WindowsNvrtcSearch::find(windowsPlaces(), [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec);
    });
    for (const auto& dll : found) {
        const bool isBundled = NvrtcSearchOrder::originOf(dll.nvrtc.string()) == "bundled";
        if (isBundled == bundled)
            out.push_back(
                {dll.nvrtc.string(), bundled ? NvrtcCandidate::Origin::Bundled : NvrtcCandidate::Origin::System});
    }
}
#endif

void addBundled(std::vector<NvrtcCandidate>& out)
{
#ifdef _WIN32
    addWindowsFolders(out, true);
#else
    addFolder(out, NvrtcSearchOrder::nvidiaDir(), NvrtcCandidate::Origin::Bundled);
#endif
}

void addSystem(std::vector<NvrtcCandidate>& out)
{
#ifdef _WIN32
    addWindowsFolders(out, false);
#endif
    // The loader's own search last on Windows (it may find a DLL in a folder above), first elsewhere.
    for (const auto& n : NvrtcSearchOrder::libraryNames())
        out.push_back({n, NvrtcCandidate::Origin::System});
#ifdef KW_CUDA_LIBRARY_DIR
    addFolder(out, KW_CUDA_LIBRARY_DIR, NvrtcCandidate::Origin::System);
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

fs::path NvrtcSearchOrder::nvidiaDir()
{
    try {
#ifdef _WIN32
        return (executableDir() / ".." / "nvidia").lexically_normal();
#else
        return (executableDir() / ".." / "lib" / "kernel-workbench" / "nvidia").lexically_normal();
#endif
    } catch (const std::exception&) {
        return {}; // no executable path (unusual embedding): the other places still apply
    }
}

std::vector<fs::path> NvrtcSearchOrder::bundledDirs()
{
    std::vector<fs::path> dirs;
#ifdef _WIN32
    try {
        dirs.push_back(executableDir());
    } catch (const std::exception&) {
    }
#endif
    if (fs::path nvidia = nvidiaDir(); !nvidia.empty())
        dirs.push_back(nvidia);
    return dirs;
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
    addBundled(out);
    if (!systemFirst)
        addSystem(out);
    return out;
}

std::string NvrtcSearchOrder::originOf(const std::string& path)
{
    const std::string env = environmentChoice();
    if (!env.empty() && env != "system" && (env == path || sameFile(env, path)))
        return toString(NvrtcCandidate::Origin::Environment);
    for (const auto& dir : bundledDirs())
        if (sameFile(fs::path(path).parent_path(), dir))
            return toString(NvrtcCandidate::Origin::Bundled);
    return toString(NvrtcCandidate::Origin::System);
}

std::string NvrtcSearchOrder::installHint()
{
#ifdef _WIN32
    return WindowsNvrtcSearch::installHint();
#else
    return "Kernels need NVIDIA's runtime compiler (NVRTC) to compile; everything else works without it. "
           "Install the package kernel-workbench-nvrtc (apt-get install kernel-workbench-nvrtc; the portable "
           "archive carries it in lib/kernel-workbench/nvidia), or NVIDIA's CUDA Toolkit, or set KWB_NVRTC to "
           "the path of libnvrtc.so.13";
#endif
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
