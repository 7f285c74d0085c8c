#pragma once
// A whole .cu file as tutorials write it: kernels plus host code (main, cudaMalloc,
// <iostream>, helper_cuda.h). NVRTC compiles device code only, so the host-only
// parts are blanked out before it sees the source: every character but the line
// breaks becomes a space, so every line and column of what is kept stays where it was.
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct HostCodeRange {
    int firstLine = 0, lastLine = 0; // 1-based, inclusive
    std::string what;                // "function main", "#include <iostream>", "declaration"
};

struct DeviceSource {
    std::string text; // the source with host-only code blanked
    std::vector<HostCodeRange> removed;
};

class HostCodeFilter {
public:
    // Host-only code: functions and prototypes without __global__ or __device__
    // (directly or through a macro), top-level declarations naming cuda* runtime
    // types or std::, and includes of host-only headers. Never throws.
    static DeviceSource deviceOnly(std::string_view source);

    // True for a header that only host code can use ("iostream", "helper_cuda.h").
    static bool isHostHeader(std::string_view name);
};

} // namespace kw
