#pragma once
// Runs NVRTC in a child process (`kwb-run compile-worker`) behind the compiler's sandbox
// (CompilerSandbox), so that hostile source can neither read what it may not nor take
// the program down: a crash becomes the error "the compiler crashed", a compile past
// the time limit is stopped and says so.
#include "compile/CompileResult.hpp"
#include "compile/NvrtcJob.hpp"
#include "util/Error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kw {

class CompileWorkerProcess {
public:
    // `worker` is the kwb-run executable.
    explicit CompileWorkerProcess(std::filesystem::path worker);

    // kwb-run beside the running program (the window, kwb-run itself and the tests all
    // live in one folder).
    static std::filesystem::path besideThisProgram();

    // NVRTC's outcome: ok, log, PTX, cubin and lowered names (diagnostics are the
    // caller's to parse). Crashes and time-outs are results; a worker that cannot start
    // or reports a failure of the machinery (NVRTC missing, a wall that cannot be
    // raised) throws kw::Error.
    CompileResult run(const NvrtcJob& job) const;

    // Starts the worker with `args` on the given standard input, output and error;
    // returns its process id. Throws kw::Error(Internal) when it cannot start. POSIX only.
    int spawn(const std::vector<std::string>& args, int in, int out, int err) const;

    // What a compile that the worker could not finish becomes: a result for a time-out
    // or a crash, an error for a failure of the machinery (`errors` is what the worker
    // said: "kwb-run: CATEGORY error: message").
    static CompileResult timedOutResult(const NvrtcJob& job);
    static CompileResult crashedResult(const NvrtcJob& job, int signal);
    static Error machineryError(const std::string& errors);

private:
    std::filesystem::path worker_;
};

} // namespace kw
