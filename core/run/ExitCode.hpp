#pragma once
// kwb-run's exit codes and what earns each: 0 success, 1 compile errors, 2 bad usage,
// bad input or nothing to run on, 3 a kernel fault, 4 a failed check, 5 an untrusted
// document asked for an option or a file it may not.
#include "compile/CompileResult.hpp"
#include "launch/RunResult.hpp"

#include <exception>

namespace kw {

class ExitCode {
public:
    enum : int { Ok = 0, CompileErrors = 1, BadInput = 2, Fault = 3, CheckFailed = 4, Untrusted = 5 };

    static int of(const CompileResult& r);
    static int of(const RunResult& r);
    // Untrusted for kw::Error(Untrusted), else BadInput.
    static int of(const std::exception& e);
};

} // namespace kw
