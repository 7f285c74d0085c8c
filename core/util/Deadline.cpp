#include "util/Deadline.hpp"

#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw {

Deadline::Deadline(double seconds)
{
    // Beyond about 30 years the clock's arithmetic could overflow: that is no limit.
    if (!(seconds > 0) || seconds > 1e9)
        return;
    limited_ = true;
    seconds_ = seconds;
    at_ = std::chrono::steady_clock::now()
        + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

bool Deadline::passed() const { return limited_ && std::chrono::steady_clock::now() >= at_; }

void Deadline::check(const std::string& what) const
{
    if (passed())
        throw Error(ErrorCategory::Limit,
                    fmt::format("{} did not finish within the time limit of {:g} s", what, seconds_));
}

} // namespace kw
