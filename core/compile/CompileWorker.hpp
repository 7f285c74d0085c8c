#pragma once
// `kwb-run compile-worker`, the child process of compile/CompileWorkerProcess: one
// NvrtcJob as JSON on its input; it raises the sandbox (CompilerSandbox), runs NVRTC
// and writes the encoded outcome to its output.
#include <cstdio>
#include <filesystem>

namespace kw {

class CompileWorker {
public:
    // Reads `in` to its end, enters the sandbox for good, compiles, writes the result to
    // `out`. Throws kw::Error for a job that cannot be read, a compiler that cannot be
    // loaded or a sandbox that cannot be raised. Call it only in a process of its own.
    static void serve(std::FILE* in, std::FILE* out);

    // The worker that stays up (compile/WarmCompileWorker): enters the sandbox once,
    // confined or not, with `pchRoot` writable for NVRTC's precompiled headers, then
    // compiles job after job. A job comes as "LENGTH\n" and that many bytes of JSON; each
    // answer is "R LENGTH\n" and the encoded result, or "E LENGTH\n" and a failure of
    // the machinery ("kwb-run: CATEGORY error: message"). Returns at the input's end.
    static void serveMany(std::FILE* in, std::FILE* out, bool confined, const std::filesystem::path& pchRoot);
};

} // namespace kw
