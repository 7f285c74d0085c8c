#pragma once
// A stop of the debugger as the Debug Adapter Protocol's `stopped` event: its reason in
// the protocol's words (breakpoint, step, data breakpoint, exception for faults and
// checks' findings, entry, goto), the warp that stopped as the thread, and in
// `description` and `text` the stop as the command language words it, with the lane.
#include "debug/DebugTypes.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kw::debug {

class DapStops {
public:
    // The warp's thread id: DAP ids start at 1.
    static int threadId(std::uint32_t warp) { return int(warp) + 1; }
    static const char* reason(StopReason r);
    // The event's body. `headline`: the command language's first line of the stop
    // (DebugConsole::stopText) without its position; `focus`: where the session's focus
    // is after it; `hitIds`: the DAP ids of the breakpoints or data breakpoints hit.
    static nlohmann::json stoppedBody(const Stop& s, const std::string& headline, const Focus& focus,
                                      const std::vector<int>& hitIds);
};

} // namespace kw::debug
