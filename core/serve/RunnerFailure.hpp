#pragma once
// One clear sentence for a runner that ended or could not be reached, from what
// its command wrote to stderr: ssh's host-key and password refusals, a scheduler
// cancelling the job, a command that is not installed (as sh, bash or cmd.exe say it).
#include <string>

namespace kw {

class RunnerFailure {
public:
    // `command`: the runner's command line; `how`: "exited with status 255" or
    // similar; `stderrTail`: the last of its stderr (may be empty).
    static std::string describe(const std::string& command, const std::string& how, const std::string& stderrTail);
};

} // namespace kw
