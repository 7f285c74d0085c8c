#pragma once
#include <string>
#include <utility>
#include <vector>

namespace kw {

struct CompileOptions {
    std::vector<std::pair<std::string, std::string>> defines; // -DNAME=VALUE (value may be empty)
    std::vector<std::string> includeDirs;                     // -I
    std::string std = "c++17";
    std::string arch;               // "sm_90", "compute_90" or empty: the device's, else a default virtual arch
    bool lineInfo = true;           // -lineinfo, on by default
    bool deviceDebug = false;       // -G
    bool fastMath = false;          // --use_fast_math
    bool tagPrintf = true;          // prefix device printf output with block/thread tags
    std::vector<std::string> extra; // further NVRTC options

    // The options as NVRTC receives them (without include dirs of the built-in headers).
    std::vector<std::string> toNvrtcArgs() const;
};

} // namespace kw
