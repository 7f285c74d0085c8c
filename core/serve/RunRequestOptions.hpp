#pragma once
// The members of a run request that change how the document runs (docs/protocol.md,
// "run"): "check" names a tool, "profile" asks for per-line counters (true) or for
// them and one warp's lanes at one line ({"file", "line", "block", "warp"}),
// "step_buffers" names the steps whose buffers come back as they left them.
#include "run/RunEngine.hpp"

#include <nlohmann/json_fwd.hpp>

namespace kw {

void writeRunOptions(nlohmann::json& request, const RunOverrides& overrides);
// Throws kw::Error(Protocol) naming the member when one is malformed.
RunOverrides readRunOptions(const nlohmann::json& request);

} // namespace kw
