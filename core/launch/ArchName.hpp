#pragma once
// An NVRTC architecture name ("sm_90", "sm_90a", "compute_75") taken apart: which
// kind, which compute capability. One place for the spelling, so the backends agree.
#include <string>

namespace kw {

struct ArchName {
    bool real = false;      // sm_XY (a binary for one GPU); else compute_XY (PTX)
    int number = 0;         // 90 for sm_90a; 0 when the name is none of these
    std::string suffix;     // "a" or "f", or empty

    static ArchName parse(const std::string& name);
    bool valid() const { return number > 0; }
    std::string ptxName() const { return "compute_" + std::to_string(number) + suffix; }
};

} // namespace kw
