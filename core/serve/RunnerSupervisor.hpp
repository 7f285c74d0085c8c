#pragma once
// Windows only: what `kwb-run serve` is there. A process cannot replace itself on
// Windows, so this small process, which never loads the CUDA driver, keeps the
// client's pipes and runs the real runner (`kwb-run serve --handover H`) as a child
// on them. A runner that must restart (a poisoned CUDA context, another printf buffer
// size, the watchdog) writes the requests it had read but not served to the handover
// file and ends with ProcessRestart::kExitRestart; the supervisor starts the next one
// with those bytes (`--pending-fd`). The client sees one process, as with exec on POSIX.
// The runners live in a job object that dies with the supervisor, so killing the
// supervisor (the client's watchdog) also kills a runner stuck in a kernel.
#include <cstdint>
#include <filesystem>
#include <string>

namespace kw {

class RunnerSupervisor {
public:
    // `pending`: a file HANDLE's value (-1: none) with input the first runner serves first.
    RunnerSupervisor(std::filesystem::path runner, std::intptr_t pending);
    // Returns the exit code of the last runner.
    int run();

private:
    std::filesystem::path runner_;
    std::intptr_t pending_;
};

} // namespace kw
