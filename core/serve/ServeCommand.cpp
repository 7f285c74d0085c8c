#include "serve/ServeCommand.hpp"

#include "serve/ServeLoop.hpp"

#ifdef _WIN32
#include "serve/ProcessRestart.hpp"
#include "serve/RunnerSupervisor.hpp"
#include "util/Paths.hpp"
#endif

namespace kw {

int ServeCommand::execute(const Options& options)
{
#ifdef _WIN32
    // Without a handover file this is the supervisor the client started.
    if (options.handover < 0)
        return RunnerSupervisor(executablePath(), std::intptr_t(options.pendingFd)).run();
    ProcessRestart::setHandover(std::intptr_t(options.handover));
#endif
    return ServeLoop(std::intptr_t(options.pendingFd)).run();
}

} // namespace kw
