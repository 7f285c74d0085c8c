// `kwb-run --version`, from the build tree and from a relocated tree laid out as
// the packages install it (bin/, lib/kernel-workbench/nvidia/ with NVRTC and
// include/): the bundled NVRTC is found relative to
// the executable and named as such, and KWB_NVRTC=system prefers the system's.
#include "run/VersionReport.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "support/TempDir.hpp"

namespace fs = std::filesystem;

namespace {

#if defined(__linux__) && defined(KW_PACKAGING_STAGE)
// Runs a shell command; returns its standard output and sets `status`.
std::string run(const std::string& command, int& status)
{
    std::string out;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p)
        return out;
    std::array<char, 4096> buf;
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p))
        out.append(buf.data(), n);
    const int rc = ::pclose(p);
    status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return out;
}

std::string line(const std::string& text, const std::string& label)
{
    const auto at = text.find("\n" + label + ":");
    if (at == std::string::npos)
        return {};
    const auto end = text.find('\n', at + 1);
    return text.substr(at + 1, end - at - 1);
}

// A tree like the installed one, with a copy of kwb-run and links to the staged files.
fs::path relocatedTree()
{
    const fs::path root = kw::test::freshDir("kw_test_version", "tree");
    const fs::path stage = KW_PACKAGING_STAGE;
    fs::create_directories(root / "bin");
    fs::create_directories(root / "lib");
    fs::copy_file(fs::path(KW_BIN_DIR) / "kwb-run", root / "bin" / "kwb-run");
    fs::create_directory_symlink(stage / "lib" / "kernel-workbench", root / "lib" / "kernel-workbench");
    return root;
}
#endif

} // namespace

TEST(Version, ReportFormatsAlignedLines)
{
    const std::string text = kw::VersionReport::format({{"a", "1"}, {"long label", "2"}});
    EXPECT_EQ(text, "a:          1\nlong label: 2\n");
    EXPECT_EQ(kw::VersionReport::version(), KW_VERSION);
    EXPECT_FALSE(kw::VersionReport::gitRevision().empty());
}

#if defined(__linux__) && defined(KW_PACKAGING_STAGE)
TEST(Version, BuildTreeNamesEveryPart)
{
    int status = -1;
    const std::string out
        = run("env -u KWB_NVRTC -u KWB_CUDA_INCLUDE " + std::string(KW_BIN_DIR) + "/kwb-run --version", status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out.rfind("kwb-run " KW_VERSION "\n", 0), 0u) << out;
    for (const char* label : {"version", "git revision", "NVRTC", "CUDA headers", "driver", "licence"})
        EXPECT_FALSE(line(out, label).empty()) << label << " missing in:\n" << out;
    EXPECT_NE(line(out, "licence").find(" GPL-3.0-or-later,"), std::string::npos) << out;
    // The build tree has no lib/kernel-workbench: NVRTC comes from the system (the toolkit).
    EXPECT_NE(line(out, "NVRTC").find("(system, /"), std::string::npos) << out;
    const std::string driver = line(out, "driver");
    EXPECT_TRUE(driver.find("not found") != std::string::npos || driver.find("CUDA ") != std::string::npos) << driver;
}

TEST(Version, RelocatedTreeUsesItsBundledNvrtcAndHeaders)
{
    const fs::path root = relocatedTree();
    const std::string exe = (root / "bin" / "kwb-run").string();
    int status = -1;
    const std::string out = run("env -u KWB_NVRTC -u KWB_CUDA_INCLUDE " + exe + " --version", status);
    ASSERT_EQ(status, 0) << out;
    const fs::path lib = root / "lib" / "kernel-workbench" / "nvidia" / "libnvrtc.so.13";
    EXPECT_NE(line(out, "NVRTC").find("(bundled, " + lib.string() + ")"), std::string::npos) << out;
    EXPECT_NE(line(out, "CUDA headers").find("nvidia/include"), std::string::npos) << out;

    const std::string system = run("env -u KWB_CUDA_INCLUDE KWB_NVRTC=system " + exe + " --version", status);
    ASSERT_EQ(status, 0) << system;
    EXPECT_NE(line(system, "NVRTC").find("(system, /"), std::string::npos) << system;
    EXPECT_EQ(line(system, "NVRTC").find(root.string()), std::string::npos) << system;

    const std::string env = run("KWB_NVRTC=" + lib.string() + " " + exe + " --version", status);
    EXPECT_NE(line(env, "NVRTC").find("(KWB_NVRTC, "), std::string::npos) << env;
}

TEST(Version, RelocatedTreeCompilesASampleWithTheBundledCompiler)
{
    const fs::path root = relocatedTree();
    int status = -1;
    const std::string out = run("env -u KWB_NVRTC -u KWB_CUDA_INCLUDE " + (root / "bin" / "kwb-run").string()
                                    + " compile " + std::string(KW_SAMPLES_DIR) + "/add_vectors.kwb",
                                status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("add"), std::string::npos) << out;
}
#else
TEST(Version, RelocatedTreeNeedsTheLinuxPackagingStage)
{
    GTEST_SKIP() << "the relocated-tree tests use the Linux packaging stage and a POSIX shell";
}
#endif
