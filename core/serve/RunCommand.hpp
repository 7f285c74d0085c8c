#pragma once
// `kwb-run run`: runs a .kwb document here (on the device --device names) or on a
// runner started by a command line (--runner), writes --out, and prints the result:
// the JSON object (--json), the compile diagnostics when it did not compile, else the
// summary. Returns the exit code (run/ExitCode).
#include "run/RunCommandOptions.hpp"
#include "run/RunEngine.hpp"

#include <cstdio>
#include <string>

namespace kw {

struct Document;
struct RunResult;
struct RunnerTraffic;

class RunCommand {
public:
    // `out` null: the process's standard output (for a run here, the one it had
    // before device printf was captured).
    explicit RunCommand(RunCommandOptions options, std::FILE* out = nullptr, std::FILE* err = stderr);

    // Never throws: a failure is reported on `err` (run/FailureReport). A kernel
    // still running after its time limit ends the process (std::_Exit) with the code.
    int execute();

private:
    int runHere(const Document& doc);
    int runOnRunner(const Document& doc);
    // --out, when asked for and the document compiled; a failure to write is bad input.
    std::string source_;            // the document's kernel source, for the profile's findings
    RunOverrides overrides() const; // the command line's changes to the document's run
    int writeOutputs(const RunResult& r, int code);
    void print(std::FILE* out, const RunResult& r, const RunnerTraffic* runner);

    RunCommandOptions options_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw
