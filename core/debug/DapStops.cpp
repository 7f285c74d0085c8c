#include "debug/DapStops.hpp"

#include <fmt/format.h>

namespace kw::debug {

const char* DapStops::reason(StopReason r)
{
    switch (r) {
    case StopReason::Entry: return "entry";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::Watch: return "data breakpoint";
    case StopReason::Fault:
    case StopReason::Finding: return "exception";
    case StopReason::Position: return "goto";
    case StopReason::Paused: return "pause";
    case StopReason::Finished: return "finished"; // not a DAP word: the launch can still be run backwards
    case StopReason::Step:
    case StopReason::Barrier:
    case StopReason::Reconverged:
    case StopReason::BlockBegin:
    case StopReason::WarpExited:
    case StopReason::BlockDone: return "step";
    }
    return "step";
}

nlohmann::json DapStops::stoppedBody(const Stop& s, const std::string& headline, const Focus& focus,
                                     const std::vector<int>& hitIds)
{
    const std::string where = fmt::format("block {} warp {} lane {} (thread {})", focus.block, focus.warp, focus.lane,
                                          std::uint64_t(focus.warp) * 32 + focus.lane);
    nlohmann::json body = {
        {"reason", reason(s.reason)},
        {"description", s.reason == StopReason::Finished ? headline : fmt::format("{}, {}", headline, where)},
        {"threadId", threadId(focus.warp)},
        {"allThreadsStopped", true},
        {"preserveFocusHint", false},
    };
    // An exception's text is its message; the others name the lane the focus is on.
    body["text"]
        = (s.reason == StopReason::Fault || s.reason == StopReason::Finding) && !s.message.empty() ? s.message : where;
    if (!hitIds.empty())
        body["hitBreakpointIds"] = hitIds;
    return body;
}

} // namespace kw::debug
