#pragma once
// The one wording of how a run's kernel times were taken (method, interval, warm-up,
// L2 flush, SM clock), for kwb-run's summary and the window's Timings panel.
#include "launch/RunResult.hpp"

#include <string>

namespace kw {

class TimingDetailText {
public:
    // One line, plain text; "" when the run carries no detail (an older runner).
    static std::string describe(const RunTimings& timings);
    // A warning when the SM clock moved or sat below its maximum, else "".
    static std::string clockWarning(const TimingDetail& detail);
};

} // namespace kw
