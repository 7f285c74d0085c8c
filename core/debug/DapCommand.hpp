#pragma once
// `kwb-run debug [DOC.kwb] --dap`: the Debug Adapter Protocol on `in` and `out`
// (docs/debugger.md, "VS Code and other DAP clients"), messages framed by DapFraming
// and answered by DapServer. When `out` is the process's standard output, the protocol
// keeps a private duplicate of it and descriptor 1 goes to standard error, so nothing
// else the process prints can fall between two messages.
#include "debug/DapFraming.hpp"
#include "debug/DapServer.hpp"

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>

namespace kw::debug {

class DapCommand {
public:
    DapCommand(DapLaunchDefaults defaults, DapLimits limits = {}, std::FILE* in = stdin, std::FILE* out = stdout,
               std::FILE* err = stderr);
    // Serves until `disconnect` (0) or the end of the input (0), or a stream that cannot
    // be read on (a broken header: said on `err` and as an output event; BadInput).
    int execute();

private:
    // What the reading thread hands to the one that answers.
    struct Inbox {
        std::mutex mu;
        std::condition_variable ready;
        std::deque<std::string> bodies;
        bool ended = false;    // nothing more comes
        bool midFrame = false; // ... and the input ended inside a message
        std::string broken;    // ... or at a frame that cannot be read
    };
    void read(Inbox& inbox, DapServer& server);

    DapLaunchDefaults defaults_;
    DapLimits limits_;
    std::FILE* in_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw::debug
