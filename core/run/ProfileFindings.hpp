#pragma once
// Plain-language findings for the lines of a profile that deserve them (docs/profile.md):
// uncoalesced or misaligned global accesses, shared-memory bank conflicts, divergent
// branches, local memory and contended atomics. Each is derived from the line's numbers
// (sectors against the ideal, the lanes' stride, wavefronts, branch counts); the source
// text serves only to quote a branch's condition.
#include "launch/KernelProfile.hpp"

#include <string>
#include <vector>

namespace kw {

struct ProfileFinding {
    enum class Kind {
        GlobalLoad, // more sectors per request than the bytes need
        GlobalStore,
        SharedLoad, // bank conflicts
        SharedStore,
        Divergence,      // branches that split warps
        LocalMemory,     // local arrays or spills
        AtomicContention // many lanes of a request update one address
    };
    Kind kind = Kind::GlobalLoad;
    std::string file;
    int line = 0;
    double costShare = 0; // the line's share of the kernel's cost (ProfileFigures)
    std::string text;     // one sentence: the figure, the cause, the remedy
};

const char* toString(ProfileFinding::Kind kind);

// Lines under this share of the kernel's cost get no finding: what they do costs too
// little to matter.
inline constexpr double kFindingMinCostShare = 0.01;

// Findings, costliest line first. `source` is the text of the profile's main file (the
// one most of its instructions come from); empty when it is not at hand, and then no
// condition is quoted.
std::vector<ProfileFinding> profileFindings(const KernelProfile& profile, const std::string& source);

// Line `line` (1-based) of `source` without its newline; empty when there is none.
std::string sourceLine(const std::string& source, int line);

// The condition a source line branches on: the parenthesis of if/while, the middle
// clause of for, what precedes ?: (the trimmed line when none of them is there).
std::string branchCondition(const std::string& sourceLine);

} // namespace kw
