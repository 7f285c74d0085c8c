#pragma once
// The debug session's state as JSON for a client (docs/protocol.md, "Sessions"): where
// the launch stopped, the focused warp's lanes and where they go on, the block's warps,
// the call frames, breakpoints and watchpoints, and the views `lanes` and `shared` asked
// for. The values a window shows, so no client parses the console's text.
#include "debug/DebugConsole.hpp"
#include "debug/DebugSession.hpp"

#include <nlohmann/json.hpp>

namespace kw {

class DebugReplyJson {
public:
    DebugReplyJson(const debug::DebugSession& session, const debug::DebugConsole& console);

    // Every reply's members besides "text": stop, ended, focus, warp, warps, frames,
    // breakpoints, watches, blocks, warps_per_block, shared_bytes, source_variables,
    // variables, locals (-G, while a warp is shown); and "lanes" or
    // "shared" or "ptx" after a `lanes`, `shared` or `ptx` command that was not refused.
    nlohmann::json reply(const std::string& command, const std::string& text) const;

    nlohmann::json stop(const debug::Stop& s) const;
    nlohmann::json warp(const debug::WarpView& w) const;
    nlohmann::json lanes(const std::vector<std::string>& expressions) const;
    // The source's variables in scope at the focused warp's pc, each with its lanes' values.
    nlohmann::json locals() const;
    nlohmann::json shared(const debug::DebugConsole::SharedRange& range) const;
    // The kernel's instructions as the simulator runs them, each a location (pc, line, text).
    nlohmann::json ptx() const;

private:
    const debug::DebugSession& session_;
    const debug::DebugConsole& console_;

    nlohmann::json location(const debug::Location& where) const;
};

} // namespace kw
