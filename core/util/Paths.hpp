#pragma once
// Where things live, relative to the running executable so an installed tree
// works anywhere, and the per-user cache folder.
#include <filesystem>

namespace kw {

std::filesystem::path executablePath();
std::filesystem::path executableDir();
// $KWB_CACHE_DIR, else $XDG_CACHE_HOME/kernel-workbench, else ~/.cache/kernel-workbench
// (%LOCALAPPDATA%\KernelWorkbench\cache on Windows).
std::filesystem::path userCacheDir();

} // namespace kw
