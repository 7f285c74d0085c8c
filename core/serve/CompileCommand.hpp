#pragma once
// `kwb-run compile`: compiles a .cu file or a .kwb document with NVRTC (through the
// program cache, stopped after two minutes) and prints the result: one JSON object
// (--json), the PTX or the CUBIN itself (--emit), or the diagnostics, the kernels and
// a summary line. Returns the exit code (run/ExitCode).
#include "run/CompileCommandOptions.hpp"

#include <chrono>
#include <cstdio>

namespace kw {

struct CompileResult;

class CompileCommand {
public:
    static constexpr std::chrono::milliseconds kTimeLimit{120000};

    explicit CompileCommand(CompileCommandOptions options, std::FILE* out = stdout, std::FILE* err = stderr);

    // Never throws: a failure is reported on `err` (run/FailureReport).
    int execute();

private:
    int print(const CompileResult& r);

    CompileCommandOptions options_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw
