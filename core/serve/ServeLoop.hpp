#pragma once
// `kwb-run serve`: reads requests from stdin and answers on the original stdout
// until end of input or a shutdown request (docs/protocol.md).
#include <string>

namespace kw {

class ServeLoop {
public:
    // `pendingFd` >= 0: a descriptor with input bytes a previous process had read.
    explicit ServeLoop(int pendingFd = -1);
    // Returns the process exit code.
    int run();

private:
    std::string pending_;
};

} // namespace kw
