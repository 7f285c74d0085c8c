#pragma once
// One exchange with a child process over pipes: a request written while the replies are
// read, so neither side blocks on a full pipe, under a deadline. POSIX only.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct PipeExchangeOutcome {
    std::vector<std::string> read; // what came from each of the read ends, in their order
    bool timedOut = false;
    bool closed = false; // every read end reached its end
};

class PipeExchange {
public:
    // Writes `payload` to `writeFd` (closed once written when `closeWhenWritten`) and
    // reads `readFds` until `done(read)` says enough, they all close, or `deadline`.
    static PipeExchangeOutcome run(int& writeFd, std::string_view payload, bool closeWhenWritten,
                                   const std::vector<int>& readFds, std::chrono::steady_clock::time_point deadline,
                                   const std::function<bool(const std::vector<std::string>&)>& done);
};

} // namespace kw
