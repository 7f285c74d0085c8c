#pragma once
// One plain-language finding about one source line ("each lane reads its own sector:
// 8x the traffic a coalesced read would need"). The core writes them from the counters
// later; the Profile view lists whatever it is given.
#include <string>

namespace kw {

struct ProfileFinding {
    std::string file;   // as -lineinfo names it; empty: the kernel's main file
    int line = 0;       // 1-based; 0 for a finding about the whole kernel
    std::string text;
};

} // namespace kw
