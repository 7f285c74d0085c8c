#pragma once
// Replaces the serve process with a fresh one on the same stdin/stdout, for a clean
// CUDA context after a sticky fault or to apply another device printf buffer size.
#include <string>

namespace kw {

class PrintfCapture;

class ProcessRestart {
public:
    // Bytes already read from stdin but not processed go to the new process through
    // an inherited descriptor (`kwb-run serve --pending-fd N`). Never returns: on
    // Windows (no exec) the process exits with kExitRestart and the client restarts it.
    [[noreturn]] static void replaceProcess(const std::string& pending, PrintfCapture* capture);

    // Reads and closes the descriptor handed over by replaceProcess.
    static std::string readPending(int fd);

    static constexpr int kExitRestart = 75;
};

} // namespace kw
