#pragma once
// What each .entry of a PTX module declares: virtual registers per type and the bytes
// of shared, local and constant memory. PTX registers are virtual (ptxas allocates the
// real ones), so the register figures are an upper bound to read with care.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct PtxResources {
    std::string entry;                    // lowered name; "" for module scope
    std::map<std::string, int> registers; // ".f32" -> 12, ".pred" -> 3 ...
    int registers32 = 0;                  // 32-bit equivalents, predicates excluded
    std::size_t sharedBytes = 0;          // static .shared declarations
    bool dynamicShared = false;           // an .extern .shared array
    std::size_t localBytes = 0;
    std::size_t constBytes = 0;
    int params = 0;

    // One element per .entry, and a first element with entry "" for module-scope
    // .shared/.const/.global declarations when there are any.
    static std::vector<PtxResources> parse(std::string_view ptx);
};

} // namespace kw
