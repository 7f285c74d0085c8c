#pragma once
// When a kernel is warm: the warm-up launches go on until their times settle
// (clocks raised, caches and TLBs filled, the module's first-use costs paid), so the
// timed runs do not start while the GPU is still ramping up.
#include <cstddef>
#include <vector>

namespace kw {

class WarmupRule {
public:
    static constexpr std::size_t kWindow = 3;     // the last this many warm-ups ...
    static constexpr double kRelative = 0.02;     // ... each within 2 % of their median
    static constexpr double kAbsoluteMs = 0.002;  // or within 2 µs (tiny kernels' noise)
    static constexpr std::size_t kMaxRuns = 100;  // never more warm-ups than this
    static constexpr double kMaxTotalMs = 2000.0; // nor more than this much kernel time

    // `minimum` warm-ups always run (the document's run.warmup); 0 turns warming up off.
    explicit WarmupRule(std::size_t minimum)
        : minimum_(minimum)
    {
    }

    // Whether another warm-up should run after these times (ms, in order).
    bool more(const std::vector<double>& timesMs) const;
    // Whether these times settled (false: the warm-up stopped at its limits).
    bool settled(const std::vector<double>& timesMs) const;

private:
    std::size_t minimum_;
};

} // namespace kw
