#pragma once
// `kwb-run debug DOC.kwb`: the document's launch in a DebugSession on the simulator,
// driven by the commands of `in` (docs/debugger.md), each echoed behind "> " with its
// output, so the text on `out` is the same on every run of the same commands. With
// --dap, the Debug Adapter Protocol instead (DapCommand), the file then optional.
#include <cstdio>
#include <string>

namespace kw::debug {

struct DebugCommandOptions {
    std::string file;       // FILE.kwb
    bool trust = false;     // --trust: the document's options and files as they are
    std::string check;      // --check: memcheck, racecheck, initcheck or synccheck
    std::string step;       // --step: the launch step of a document of steps
    std::size_t pass = 0;   // --pass: its launch in that pass of the repeat around it (0: the first)
    bool optimized = false; // --optimized: without -G, the optimized code with PTX registers only
    bool dap = false;       // --dap: the Debug Adapter Protocol on stdin/stdout (DapCommand)
};

class DebugCommand {
public:
    DebugCommand(DebugCommandOptions options, std::FILE* in = stdin, std::FILE* out = stdout, std::FILE* err = stderr);
    // Never throws: a failure is reported on `err` (run/FailureReport), with its exit code.
    int execute();

private:
    DebugCommandOptions options_;
    std::FILE* in_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw::debug
