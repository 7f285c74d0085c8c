#include "run/StepProgress.hpp"

namespace kw {

void StepProgress::started(const std::string& path, Clock::time_point now)
{
    if (!callback_)
        return;
    const auto [it, first] = last_.try_emplace(path, now);
    if (!first) {
        if (now - it->second < kInterval)
            return;
        it->second = now;
    }
    callback_(path);
}

} // namespace kw
