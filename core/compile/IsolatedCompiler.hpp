#pragma once
// Compiles in a child process (`kwb-run compile-worker`), so that NVRTC crashing or
// hanging on hostile source costs a diagnostic, not the program: a crash becomes the
// error "the compiler crashed", a compile past the time limit is stopped and says so.
#include "compile/Compiler.hpp"

#include <chrono>
#include <filesystem>

namespace kw {

class IsolatedCompiler {
public:
    // `worker` is the kwb-run executable.
    IsolatedCompiler(std::filesystem::path worker, std::chrono::milliseconds timeLimit);

    // Compile errors, crashes and time-outs are results; a worker that cannot start or
    // reports a failure of the machinery (NVRTC missing) throws kw::Error.
    CompileResult compile(const CompileRequest& request) const;

private:
    std::filesystem::path worker_;
    std::chrono::milliseconds timeLimit_;
};

} // namespace kw
