#pragma once
// Replaces the serve process with a fresh one on the same stdin/stdout, for a clean
// CUDA context after a sticky fault or to apply another device printf buffer size.
#include <cstdint>
#include <string>

namespace kw {

class PrintfCapture;

class ProcessRestart {
public:
    // Bytes already read from stdin but not processed go to the new process through
    // an inherited descriptor (`kwb-run serve --pending-fd N`). Never returns. POSIX:
    // exec on the same pipes. Windows (no exec): the bytes go to the handover file and
    // the process ends with kExitRestart; its RunnerSupervisor starts the next runner.
    [[noreturn]] static void replaceProcess(const std::string& pending, PrintfCapture* capture);

    // Reads and closes what replaceProcess handed over: a descriptor on POSIX, an
    // inherited file HANDLE's value on Windows.
    static std::string readPending(std::intptr_t fd);

#ifdef _WIN32
    // The inherited file HANDLE (`kwb-run serve --handover H`) replaceProcess writes to.
    static void setHandover(std::intptr_t handle);
#endif

    static constexpr int kExitRestart = 75;
};

} // namespace kw
