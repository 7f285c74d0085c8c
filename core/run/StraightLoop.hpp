#pragma once
// Whether a loop of a document of steps is straight: its passes are the same operations
// every time, so they can be recorded once and replayed as a whole (a CUDA graph).
// Straight: a counted `repeat` whose inner steps are launches, copies, fills and swaps,
// with no checks among them (they read the buffers after every pass), no expression that
// reads a buffer, and no kernel that prints (its lines belong to its launch). Swaps are
// fine: they only change which buffer a name means, in a pattern that repeats.
#include "doc/Document.hpp"

#include <set>
#include <string>
#include <vector>

namespace kw {

class StraightLoop {
public:
    // `buffers`: the document's buffer names; `printing`: the kernels that call printf.
    static StraightLoop of(const StepSpec& loop, const std::vector<std::string>& buffers,
                           const std::set<std::string>& printing);

    bool straight() const { return why_.empty(); }
    // Why it is not straight ("" when it is): "step 2.1 has checks, which read the buffers after every pass".
    const std::string& why() const { return why_; }
    // Straight, and no expression names the pass index: every pass evaluates to the same
    // launch dimensions, arguments, offsets and counts (which buffers they name may still
    // differ by the swaps).
    bool samePasses() const { return straight() && !usesIndex_; }
    // Launches, copies and fills in one pass.
    std::size_t opsPerPass() const { return ops_; }

private:
    std::string why_;
    bool usesIndex_ = false;
    std::size_t ops_ = 0;
};

// The names an expression's text mentions (identifiers, functions included), in order.
std::vector<std::string> namesIn(const std::string& text);

} // namespace kw
