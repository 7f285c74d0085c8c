#pragma once
// The kernel's printf output as the Debug Adapter Protocol's `output` events (category
// `stdout`), each line tagged with the block and thread that printed it, as the run's
// printf view tags them: "block (1, 0, 0) thread (5, 0, 0): text". Every run of the
// launch is the same run, so the lines come in one order: a line is sent once, and
// going back and forward again sends none twice.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace kw::debug {

class DebugSession;

class DapOutput {
public:
    explicit DapOutput(const DebugSession& session)
        : session_(session)
    {
    }
    // The bodies of the `output` events for the lines printed since the last call.
    std::vector<nlohmann::json> take();

private:
    const DebugSession& session_;
    std::size_t sent_ = 0;            // lines sent: the first ones of the launch's output
    std::uint64_t seenBytes_ = ~0ull; // the printf bytes at the last look (nothing new: no look)
    bool toldTruncated_ = false;
};

} // namespace kw::debug
