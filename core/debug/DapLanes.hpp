#pragma once
// The `lanes` request, the adapter's own (the protocol has no place for a warp's lanes):
// the focused warp's 32 lanes as a table a client can draw, each lane's state, its thread
// and one value per expression, as `lanes EXPR...` prints it in the Debug Console.
// Arguments: `threadId` (the warp, focused), `expressions` (strings; none: the source's
// variables in scope that hold one number per lane). Body: `block`, `warp`, `columns`
// (the expressions), `lanes`: 32 of {lane, thread, state (active, diverged, atBarrier,
// exited, absent: no thread of the block), values: one {value (a number, or null where the
// lane has none), text} per column}.
#include "debug/DebugSession.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kw::debug {

class DapLanes {
public:
    // Throws kw::Error for an expression that cannot be read.
    static nlohmann::json table(const DebugSession& session, std::vector<std::string> expressions);
};

} // namespace kw::debug
