#pragma once
// What `--version` prints: this build, and the NVRTC, CUDA headers and driver
// this process finds, each with where it came from or why it is missing.
#include <string>
#include <utility>
#include <vector>

namespace kw {

class VersionReport {
public:
    using Line = std::pair<std::string, std::string>; // label, value

    // Loads NVRTC and the driver if they are not loaded yet; never throws.
    static std::vector<Line> collect();

    // "label: value" lines, the labels padded to one width.
    static std::string format(const std::vector<Line>& lines);

    static std::string version();     // "0.1.0"
    static std::string gitRevision(); // "82a9ca5" (+"-dirty"), or "unknown"
    static std::string licence();     // the licence of the program, and that NVIDIA's files keep theirs
};

} // namespace kw
