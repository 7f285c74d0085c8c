#pragma once
// `kwb-run compile`: compiles a .cu file or a .kwb document with NVRTC (through the
// program cache, stopped after two minutes) and prints the result: one JSON object
// (--json), the PTX or the CUBIN itself (--emit), or the diagnostics, the kernels and
// a summary line, and for a document the occupancy of its launch. Returns the exit code (run/ExitCode).
#include "launch/LaunchTypes.hpp"
#include "run/CompileCommandOptions.hpp"
#include "run/CompileInput.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

namespace kw {

struct CompileResult;

class CompileCommand {
public:
    static constexpr std::chrono::milliseconds kTimeLimit{120000};

    explicit CompileCommand(CompileCommandOptions options, std::FILE* out = stdout, std::FILE* err = stderr);

    // Never throws: a failure is reported on `err` (run/FailureReport).
    int execute();

private:
    int print(const CompileResult& r, const CompileInput& in);
    // The device named by --device (default: cuda:0 when present, else the simulator).
    std::optional<DeviceInfo> device() const;
    // A document of steps: each launch step's occupancy on the device.
    void printStepOccupancy(const CompileResult& r, const CompileInput& in);

    CompileCommandOptions options_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw
