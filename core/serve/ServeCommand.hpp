#pragma once
// `kwb-run serve`: serves the JSON-lines protocol on stdin/stdout (serve/ServeLoop).
// On Windows, where a process cannot replace itself, the process the client starts
// is the supervisor that runs the real runner as its child (serve/RunnerSupervisor);
// that child is told by --handover where to leave its unserved input.
#include <cstdint>

namespace kw {

class ServeCommand {
public:
    struct Options {
        std::int64_t pendingFd = -1; // --pending-fd: input a previous runner had read
        std::int64_t handover = -1;  // --handover (Windows): the file for unserved input
    };

    // Returns the process exit code.
    static int execute(const Options& options);
};

} // namespace kw
