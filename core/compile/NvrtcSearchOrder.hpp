#pragma once
// Where NVRTC is looked for, in order. One place, so each platform's names and
// folders sit side by side and --version can say which one was taken.
#include <filesystem>
#include <string>
#include <vector>

namespace kw {

struct NvrtcCandidate {
    enum class Origin { Environment, System, Bundled };
    std::string name; // an absolute path, or a bare soname for the loader's own search
    Origin origin = Origin::System;
};

class NvrtcSearchOrder {
public:
    // $KWB_NVRTC=<path> first; then the bundled copy, then the system's (the
    // loader's search, then the toolkit found at build time; on Windows the
    // toolkits, then PATH, in WindowsNvrtcSearch's order). $KWB_NVRTC=system
    // puts the system's before the bundled copy.
    static std::vector<NvrtcCandidate> candidates();

    // The folder of NVIDIA's files the packages carry (kernel-workbench-nvrtc: NVRTC,
    // its builtins, include/ with the device headers):
    // <exe dir>/../lib/kernel-workbench/nvidia, on Windows <exe dir>\..\nvidia.
    static std::filesystem::path nvidiaDir();

    // The folders whose NVRTC counts as bundled: nvidiaDir(), and on Windows the
    // executable's own folder too.
    static std::vector<std::filesystem::path> bundledDirs();

    // NVRTC's file names this build can use, newest first.
    static std::vector<std::string> libraryNames();

    // The libraries to open, by path, before an NVRTC at `path`: libnvrtc opens
    // libnvrtc-builtins by soname, and the loader would not look beside it.
    static std::vector<std::string> companionsOf(const std::filesystem::path& path);

    // How a loaded library at `path` was found: "bundled", "KWB_NVRTC" or "system".
    static std::string originOf(const std::string& path);
    // What to install when no NVRTC was found.
    static std::string installHint();
    static const char* toString(NvrtcCandidate::Origin origin);
};

} // namespace kw
