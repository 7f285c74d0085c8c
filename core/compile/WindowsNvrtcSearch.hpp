#pragma once
// Where NVRTC is looked for on Windows, as a function of what the machine shows
// (environment, the registry's toolkits, the executable's folder) and of which
// files exist, so the order is tested anywhere (tests/core/test_windows_nvrtc_search).
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kw {

struct WindowsNvrtcPlaces {
    // Environment variables as the process sees them (names compared without case).
    std::vector<std::pair<std::string, std::string>> environment;
    // InstallDir of each toolkit under HKLM\SOFTWARE\NVIDIA Corporation\GPU Computing Toolkit\CUDA.
    std::vector<std::string> registryToolkits;
    std::filesystem::path executableDir;
};

struct WindowsNvrtcDll {
    std::filesystem::path nvrtc;    // nvrtc64_<major><minor>_0.dll
    std::filesystem::path builtins; // nvrtc-builtins64_<major><minor>.dll, in the same folder
    std::string place;              // where it was found: "beside the executable", "CUDA_PATH", ...
};

class WindowsNvrtcSearch {
public:
    using FileExists = std::function<bool(const std::filesystem::path&)>;

    // The NVRTC DLLs found, in the order they are tried:
    //   1. beside the executable, then the installer's NVIDIA folder (<exe>\..\nvidia);
    //   2. %CUDA_PATH% (the toolkit the CUDA installer made the default);
    //   3. %CUDA_PATH_Vmm_n%, newest version first;
    //   4. the registry's toolkits, newest version first;
    //   5. each folder of %PATH%, in its order.
    // In a toolkit, bin\x64 (CUDA 13) before bin (CUDA 12 and older). In each folder the
    // newest NVRTC this build knows comes first; one without its builtins DLL is skipped.
    // A folder reached twice is tried once.
    static std::vector<WindowsNvrtcDll> find(const WindowsNvrtcPlaces& places, const FileExists& exists);

    // The folders of step 1-5 with their place names, before looking for files.
    static std::vector<std::pair<std::filesystem::path, std::string>> folders(const WindowsNvrtcPlaces& places);

    // What to install when nothing was found, for the error message.
    static std::string installHint();
};

} // namespace kw
