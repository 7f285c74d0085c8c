#pragma once
// NVRTC, opened at run time (never linked) so the program starts without it.
#include <nvrtc.h> // types and enums only

#include <memory>
#include <string>
#include <vector>

namespace kw {

class NvrtcLibrary {
public:
    // The process-wide instance, loaded on first use (thread-safe). Throws
    // kw::Error(Nvrtc) listing every place tried when NVRTC cannot be opened;
    // the next call tries again.
    static const NvrtcLibrary& instance();

    // The names tried, in order (see NvrtcSearchOrder).
    static std::vector<std::string> candidateNames();

    // Opens the first of `names` that loads; throws kw::Error(Nvrtc) listing
    // each name tried and why it failed. instance() uses candidateNames().
    static std::unique_ptr<NvrtcLibrary> open(const std::vector<std::string>& names);

    // The file loaded, and how it was found: "bundled", "system" or "KWB_NVRTC".
    const std::string& path() const { return path_; }
    const std::string& origin() const { return origin_; }
    int major() const { return major_; }
    int minor() const { return minor_; }
    std::string version() const { return std::to_string(major_) + "." + std::to_string(minor_); }
    // The real architectures this NVRTC can emit (75, 80, ...).
    const std::vector<int>& supportedArchs() const { return archs_; }

    // Throws kw::Error(Nvrtc) naming `what` and NVRTC's error string unless r is success.
    void check(nvrtcResult r, const char* what) const;

    decltype(&::nvrtcGetErrorString) getErrorString = nullptr;
    decltype(&::nvrtcVersion) versionFn = nullptr;
    decltype(&::nvrtcGetNumSupportedArchs) getNumSupportedArchs = nullptr;
    decltype(&::nvrtcGetSupportedArchs) getSupportedArchs = nullptr;
    decltype(&::nvrtcCreateProgram) createProgram = nullptr;
    decltype(&::nvrtcDestroyProgram) destroyProgram = nullptr;
    decltype(&::nvrtcCompileProgram) compileProgram = nullptr;
    decltype(&::nvrtcGetPTXSize) getPTXSize = nullptr;
    decltype(&::nvrtcGetPTX) getPTX = nullptr;
    decltype(&::nvrtcGetCUBINSize) getCUBINSize = nullptr;
    decltype(&::nvrtcGetCUBIN) getCUBIN = nullptr;
    decltype(&::nvrtcGetProgramLogSize) getProgramLogSize = nullptr;
    decltype(&::nvrtcGetProgramLog) getProgramLog = nullptr;
    decltype(&::nvrtcAddNameExpression) addNameExpression = nullptr;
    decltype(&::nvrtcGetLoweredName) getLoweredName = nullptr;
    // Precompiled headers (NVRTC 12.8 and later); null in an older NVRTC.
    decltype(&::nvrtcGetPCHCreateStatus) getPCHCreateStatus = nullptr;
    decltype(&::nvrtcGetPCHHeapSizeRequired) getPCHHeapSizeRequired = nullptr;
    decltype(&::nvrtcSetPCHHeapSize) setPCHHeapSize = nullptr;
    bool hasPch() const { return getPCHCreateStatus && getPCHHeapSizeRequired && setPCHHeapSize; }

    NvrtcLibrary(const NvrtcLibrary&) = delete;
    NvrtcLibrary& operator=(const NvrtcLibrary&) = delete;
    ~NvrtcLibrary();

private:
    explicit NvrtcLibrary(const std::vector<std::string>& names);
    struct Impl;
    Impl* impl_ = nullptr;
    std::string path_;
    std::string origin_;
    int major_ = 0, minor_ = 0;
    std::vector<int> archs_;
};

} // namespace kw
