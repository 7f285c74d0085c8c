#pragma once
// NVRTC's word on its automatic precompiled headers, taken out of the compile log: the
// lines are NVRTC's bookkeeping, not diagnostics of the user's code.
#include <string>

namespace kw {

class PchLog {
public:
    // Removes NVRTC's "creating/using precompiled header file" lines from `log` and
    // says what they said: "used", "created" or "" (no PCH in this compile).
    static std::string take(std::string& log);
};

} // namespace kw
