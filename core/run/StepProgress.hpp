#pragma once
// Tells which step of a document of steps begins a run, without flooding: each path is
// announced at most once per kInterval, so a loop of 200 short passes sends a handful
// of events, not 200 (the window's step list and the serve protocol's step events).
#include <chrono>
#include <functional>
#include <map>
#include <string>

namespace kw {

class StepProgress {
public:
    using Callback = std::function<void(const std::string& path)>;
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kInterval{50};

    explicit StepProgress(Callback callback = {})
        : callback_(std::move(callback))
    {
    }

    // Step `path` begins a run at `now`.
    void started(const std::string& path, Clock::time_point now = Clock::now());

private:
    Callback callback_;
    std::map<std::string, Clock::time_point> last_;
};

} // namespace kw
