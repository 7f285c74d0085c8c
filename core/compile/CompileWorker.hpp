#pragma once
// `kwb-run compile-worker`, the child process of compile/CompileWorkerProcess: one
// NvrtcJob as JSON on its input; it raises the sandbox (CompilerSandbox), runs NVRTC
// and writes the encoded outcome to its output.
#include <cstdio>

namespace kw {

class CompileWorker {
public:
    // Reads `in` to its end, enters the sandbox for good, compiles, writes the result to
    // `out`. Throws kw::Error for a job that cannot be read, a compiler that cannot be
    // loaded or a sandbox that cannot be raised. Call it only in a process of its own.
    static void serve(std::FILE* in, std::FILE* out);
};

} // namespace kw
