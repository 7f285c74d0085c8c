#include "debug/DapOutput.hpp"

#include "debug/DebugSession.hpp"

#include <fmt/format.h>

namespace kw::debug {

namespace {

// Linear x fastest, as a launch numbers its blocks and a block its threads.
std::string coordinates(std::uint64_t linear, const Dim3& d)
{
    const std::uint64_t x = linear % d.x, y = (linear / d.x) % d.y, z = linear / (std::uint64_t(d.x) * d.y);
    return fmt::format("({}, {}, {})", x, y, z);
}

} // namespace

std::vector<nlohmann::json> DapOutput::take()
{
    std::vector<nlohmann::json> out;
    const std::uint64_t bytes = session_.printedBytes();
    if (bytes == seenBytes_)
        return out;
    seenBytes_ = bytes;
    const LaunchConfig& config = session_.launchConfig();
    std::size_t index = 0;
    std::string text;
    for (const DeviceOutput& o : session_.output())
        for (const PrintedLine& line : o.lines) {
            if (index++ < sent_)
                continue;
            text += fmt::format("block {} thread {}: {}\n", coordinates(o.block, config.grid),
                                coordinates(line.thread, config.block), line.text);
        }
    if (index > sent_) {
        sent_ = index;
        out.push_back({{"category", "stdout"}, {"output", std::move(text)}});
    }
    if (session_.outputTruncated() && !toldTruncated_) {
        toldTruncated_ = true;
        out.push_back(
            {{"category", "console"}, {"output", "the launch's printf buffer is full: later output was dropped\n"}});
    }
    return out;
}

} // namespace kw::debug
