#include "util/Paths.hpp"

#include <cstdlib>

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace kw {

namespace fs = std::filesystem;

fs::path executablePath()
{
#ifdef _WIN32
    wchar_t buf[MAX_PATH];
    DWORD n = GetModuleFileNameW(nullptr, buf, MAX_PATH);
    return fs::path(std::wstring(buf, n));
#else
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : p;
#endif
}

fs::path executableDir() { return executablePath().parent_path(); }

fs::path userCacheDir()
{
    if (const char* d = std::getenv("KWB_CACHE_DIR"); d && *d)
        return fs::path(d);
#ifdef _WIN32
    if (const char* d = std::getenv("LOCALAPPDATA"); d && *d)
        return fs::path(d) / "KernelWorkbench" / "cache";
    return fs::temp_directory_path() / "KernelWorkbench" / "cache";
#else
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d)
        return fs::path(d) / "kernel-workbench";
    if (const char* h = std::getenv("HOME"); h && *h)
        return fs::path(h) / ".cache" / "kernel-workbench";
    return fs::temp_directory_path() / "kernel-workbench-cache";
#endif
}

} // namespace kw
