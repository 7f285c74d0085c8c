#pragma once
// `kwb-run devices`: lists the GPUs and the simulator with their limits, as text or
// as the serve protocol's devices reply (--json). Returns the exit code.
#include <cstdio>

namespace kw {

class DevicesCommand {
public:
    // Never throws: a failure is reported on `err` (run/FailureReport).
    static int execute(bool json, std::FILE* out = stdout, std::FILE* err = stderr);
};

} // namespace kw
