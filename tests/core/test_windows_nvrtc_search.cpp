// Where NVRTC is looked for on Windows (WindowsNvrtcSearch), with the environment,
// the registry's toolkits and the files that exist given: no Windows needed.
#include "compile/WindowsNvrtcSearch.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace fs = std::filesystem;
using kw::WindowsNvrtcPlaces;
using kw::WindowsNvrtcSearch;

namespace {

// The files of a pretend machine; paths compared as written, with '/' for '\'.
struct Files {
    std::set<std::string> paths;
    void add(const std::string& dir, const std::string& nvrtc, const std::string& builtins)
    {
        paths.insert(norm(fs::path(dir) / nvrtc));
        paths.insert(norm(fs::path(dir) / builtins));
    }
    static std::string norm(const fs::path& p)
    {
        std::string s = p.lexically_normal().generic_string();
        for (auto& c : s)
            if (c == '\\')
                c = '/';
        return s;
    }
    WindowsNvrtcSearch::FileExists exists() const
    {
        return [this](const fs::path& p) { return paths.count(norm(p)) > 0; };
    }
};

std::vector<std::string> found(const WindowsNvrtcPlaces& places, const Files& files)
{
    std::vector<std::string> out;
    for (const auto& dll : WindowsNvrtcSearch::find(places, files.exists()))
        out.push_back(Files::norm(dll.nvrtc) + " (" + dll.place + ")");
    return out;
}

const std::string k13 = "nvrtc64_130_0.dll", k13b = "nvrtc-builtins64_130.dll";
const std::string k12 = "nvrtc64_120_0.dll", k126b = "nvrtc-builtins64_126.dll";

} // namespace

TEST(WindowsNvrtcSearch, NothingInstalledFindsNothingAndTheHintNamesWhatToInstall)
{
    WindowsNvrtcPlaces places;
    places.executableDir = "C:/KW/bin";
    places.environment = {{"PATH", "C:/Windows/system32;C:/Windows"}};
    EXPECT_TRUE(found(places, Files{}).empty());
    const std::string hint = WindowsNvrtcSearch::installHint();
    EXPECT_NE(hint.find("CUDA Toolkit"), std::string::npos) << hint;
    EXPECT_NE(hint.find("KWB_NVRTC"), std::string::npos) << hint;
}

TEST(WindowsNvrtcSearch, TheDocumentedOrderBesideExeThenNvidiaFolderThenCudaPathThenVersionedThenRegistryThenPath)
{
    WindowsNvrtcPlaces places;
    places.executableDir = "C:/KW/bin";
    places.environment = {
        {"Path", "C:/Tools/cuda;C:/Windows"}, {"CUDA_PATH_V12_6", "C:/CUDA/v12.6"}, {"CUDA_PATH", "C:/CUDA/v13.0"},
        {"CUDA_PATH_V13_0", "C:/CUDA/v13.0"}, // same toolkit as CUDA_PATH: tried once
        {"CUDA_PATH_V11_8", "C:/CUDA/v11.8"},
    };
    places.registryToolkits = {"D:/Old/v12.4", "D:/New/v13.1"};
    Files files;
    files.add("C:/KW/bin", k13, k13b);
    files.add("C:/KW/nvidia", k13, k13b);
    files.add("C:/CUDA/v13.0/bin/x64", k13, k13b);
    files.add("C:/CUDA/v12.6/bin", k12, k126b);
    files.add("D:/New/v13.1/bin/x64", k13, "nvrtc-builtins64_131.dll");
    files.add("D:/Old/v12.4/bin", k12, "nvrtc-builtins64_124.dll");
    files.add("C:/Tools/cuda", k13, k13b);

    const std::vector<std::string> expected = {
        "C:/KW/bin/nvrtc64_130_0.dll (beside the executable)",
        "C:/KW/nvidia/nvrtc64_130_0.dll (the installer's NVIDIA folder)",
        "C:/CUDA/v13.0/bin/x64/nvrtc64_130_0.dll (CUDA_PATH)",
        "C:/CUDA/v12.6/bin/nvrtc64_120_0.dll (CUDA_PATH_V12_6)",
        "D:/New/v13.1/bin/x64/nvrtc64_130_0.dll (the registry's CUDA Toolkit v13.1)",
        "D:/Old/v12.4/bin/nvrtc64_120_0.dll (the registry's CUDA Toolkit v12.4)",
        "C:/Tools/cuda/nvrtc64_130_0.dll (PATH)",
    };
    EXPECT_EQ(found(places, files), expected);
}

TEST(WindowsNvrtcSearch, AToolkitsBinX64ComesBeforeItsBinAndTheNewestNvrtcFirstInAFolder)
{
    WindowsNvrtcPlaces places;
    places.environment = {{"CUDA_PATH", "C:/CUDA"}};
    Files files;
    files.add("C:/CUDA/bin", k13, k13b);
    files.add("C:/CUDA/bin/x64", k12, k126b);
    files.add("C:/CUDA/bin/x64", k13, k13b);
    const std::vector<std::string> expected = {
        "C:/CUDA/bin/x64/nvrtc64_130_0.dll (CUDA_PATH)",
        "C:/CUDA/bin/x64/nvrtc64_120_0.dll (CUDA_PATH)",
        "C:/CUDA/bin/nvrtc64_130_0.dll (CUDA_PATH)",
    };
    EXPECT_EQ(found(places, files), expected);
}

TEST(WindowsNvrtcSearch, AnNvrtcWithoutItsBuiltinsIsSkippedAndTheBuiltinsNameCarriesTheMinorVersion)
{
    WindowsNvrtcPlaces places;
    places.executableDir = "C:/KW/bin";
    places.environment = {{"CUDA_PATH", "C:/CUDA"}};
    Files files;
    files.paths.insert("C:/KW/bin/" + k13); // builtins missing: NVRTC would fail at its first compile
    files.add("C:/CUDA/bin/x64", k12, k126b);
    const auto dlls = WindowsNvrtcSearch::find(places, files.exists());
    ASSERT_EQ(dlls.size(), 1u);
    EXPECT_EQ(Files::norm(dlls[0].nvrtc), "C:/CUDA/bin/x64/" + k12);
    EXPECT_EQ(Files::norm(dlls[0].builtins), "C:/CUDA/bin/x64/" + k126b);
}

TEST(WindowsNvrtcSearch, PathEntriesAreSplitUnquotedAndFoldersComparedWithoutCase)
{
    WindowsNvrtcPlaces places;
    places.environment = {{"cuda_path", "C:/CUDA"}, {"PATH", "\"C:/Quoted Dir\";;c:/cuda/BIN/X64/;C:/Other"}};
    const auto folders = WindowsNvrtcSearch::folders(places);
    std::vector<std::string> names;
    for (const auto& [dir, place] : folders)
        names.push_back(Files::norm(dir) + " (" + place + ")");
    const std::vector<std::string> expected = {
        "C:/CUDA/bin/x64 (CUDA_PATH)",
        "C:/CUDA/bin (CUDA_PATH)",
        "C:/Quoted Dir (PATH)",
        "C:/Other (PATH)",
    };
    EXPECT_EQ(names, expected);
}
