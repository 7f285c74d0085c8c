#pragma once
// Milliseconds since a point on the steady clock: every stage time the workbench reports.
#include <chrono>

namespace kw {

using SteadyClock = std::chrono::steady_clock;

inline double msSince(SteadyClock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
}

} // namespace kw
