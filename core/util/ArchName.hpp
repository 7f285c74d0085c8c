#pragma once
// An NVRTC architecture name ("sm_90", "sm_90a", "compute_75") taken apart: which
// kind, which compute capability. One place for the spelling: the option allow-list,
// the backends (Backend::archFor) and the tests agree on it.
#include <string>

namespace kw {

struct ArchName {
    bool real = false;  // sm_XY (a binary for one GPU); else compute_XY (PTX)
    int number = 0;     // 90 for sm_90a
    std::string suffix; // "a" or "f", or empty
    bool named = false; // the name had this spelling

    static ArchName parse(const std::string& name);
    bool valid() const { return named; }
    std::string ptxName() const { return "compute_" + std::to_string(number) + suffix; }
};

} // namespace kw
