// The per-user cache folder: $KWB_CACHE_DIR, else $XDG_CACHE_HOME/kernel-workbench,
// else ~/.cache/kernel-workbench, else a folder in the temporary directory (Windows:
// %LOCALAPPDATA%\KernelWorkbench\cache, else the temporary directory's); and the
// executable's own location, which resources are found relative to.
#include "util/Paths.hpp"

#include "gpu/ChildProcess.hpp"
#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

namespace fs = std::filesystem;

namespace {

using ScopedEnv = kw::test::ScopedEnvironment;

} // namespace

TEST(Paths, TheCacheFolderFollowsTheEnvironmentInOrder)
{
    ScopedEnv kwb("KWB_CACHE_DIR", "/somewhere/kwb");
#ifdef _WIN32
    // Windows: %LOCALAPPDATA%\KernelWorkbench\cache (the uninstaller removes it);
    // XDG_CACHE_HOME and HOME mean nothing there.
    ScopedEnv local("LOCALAPPDATA", "C:/somewhere/local");
    ScopedEnv xdg("XDG_CACHE_HOME", "/somewhere/xdg");
    EXPECT_EQ(kw::userCacheDir(), fs::path("/somewhere/kwb"));
    {
        ScopedEnv empty("KWB_CACHE_DIR", "");
        EXPECT_EQ(kw::userCacheDir(), fs::path("C:/somewhere/local") / "KernelWorkbench" / "cache")
            << "an empty value is unset";
    }
    {
        ScopedEnv none("KWB_CACHE_DIR", std::nullopt);
        EXPECT_EQ(kw::userCacheDir(), fs::path("C:/somewhere/local") / "KernelWorkbench" / "cache");
        ScopedEnv noLocal("LOCALAPPDATA", std::nullopt);
        EXPECT_EQ(kw::userCacheDir(), fs::temp_directory_path() / "KernelWorkbench" / "cache");
    }
#else
    ScopedEnv xdg("XDG_CACHE_HOME", "/somewhere/xdg");
    ScopedEnv home("HOME", "/somewhere/home");
    EXPECT_EQ(kw::userCacheDir(), fs::path("/somewhere/kwb"));
    {
        ScopedEnv empty("KWB_CACHE_DIR", "");
        EXPECT_EQ(kw::userCacheDir(), fs::path("/somewhere/xdg/kernel-workbench")) << "an empty value is unset";
    }
    {
        ScopedEnv none("KWB_CACHE_DIR", std::nullopt);
        EXPECT_EQ(kw::userCacheDir(), fs::path("/somewhere/xdg/kernel-workbench"));
        ScopedEnv noXdg("XDG_CACHE_HOME", std::nullopt);
        EXPECT_EQ(kw::userCacheDir(), fs::path("/somewhere/home/.cache/kernel-workbench"));
        ScopedEnv noHome("HOME", std::nullopt);
        EXPECT_EQ(kw::userCacheDir(), fs::temp_directory_path() / "kernel-workbench-cache");
    }
#endif
}

TEST(Paths, TheExecutableIsThisTestProgram)
{
    const fs::path exe = kw::executablePath();
    ASSERT_FALSE(exe.empty());
    EXPECT_TRUE(exe.is_absolute());
    EXPECT_TRUE(fs::exists(exe));
#ifdef _WIN32
    EXPECT_EQ(exe.filename(), "core_test_paths.exe");
#else
    EXPECT_EQ(exe.filename(), "core_test_paths");
#endif
    EXPECT_EQ(kw::executableDir(), exe.parent_path());
}

TEST(Paths, KwbRunKeepsItsProgramCacheInTheFolderTheEnvironmentNames)
{
    const fs::path cache = kw::test::freshDir("kw_test_paths", "cache");
    const fs::path src = kw::test::freshDir("kw_test_paths", "src") / "k.cu";
    std::ofstream(src) << "__global__ void k(int* p) { p[0] = 42; }\n";
    ScopedEnv kwb("KWB_CACHE_DIR", cache.string());
    const auto r = kwtest::runKwb({"compile", src.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::size_t entries = 0;
    for (const auto& e : fs::recursive_directory_iterator(cache))
        entries += e.is_regular_file();
    EXPECT_GT(entries, 0u) << "the compile was stored under " << cache;
}
