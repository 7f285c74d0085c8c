#pragma once
// `kwb-run serve`: reads requests from stdin and answers on the original stdout
// until end of input or a shutdown request (docs/protocol.md).
#include <cstdint>
#include <string>

namespace kw {

class ServeLoop {
public:
    // `pendingFd` >= 0: a descriptor (Windows: a file HANDLE's value) with input
    // bytes a previous process had read.
    explicit ServeLoop(std::intptr_t pendingFd = -1);
    // Returns the process exit code.
    int run();

private:
    std::string pending_;
};

} // namespace kw
