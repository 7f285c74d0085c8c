#pragma once
// A compile worker kept up between compiles, so NVRTC's automatic precompiled headers
// (made and usable only inside one process) stay warm while a document is edited: a
// recompile of a source that includes the CUDA headers reuses them. It runs behind the
// same sandbox as a worker of one job (CompilerSandbox), entered once, with one folder
// writable for the precompiled headers. A crash or a time-out ends the worker; the next
// compile starts another. POSIX only: elsewhere each compile runs as
// CompileWorkerProcess::run does.
#include "compile/CompileResult.hpp"
#include "compile/CompileWorkerProcess.hpp"
#include "compile/NvrtcJob.hpp"

#include <filesystem>
#include <set>
#include <string>

namespace kw {

class WarmCompileWorker {
public:
    // `worker` is kwb-run; `confined` says which jobs it takes (NvrtcJob::confined);
    // `pchRoot` is a folder of its own, made here and removed with this object.
    WarmCompileWorker(std::filesystem::path worker, bool confined, std::filesystem::path pchRoot);
    ~WarmCompileWorker();
    WarmCompileWorker(const WarmCompileWorker&) = delete;
    WarmCompileWorker& operator=(const WarmCompileWorker&) = delete;

    // As CompileWorkerProcess::run. `pchKey` is what a precompiled header depends on
    // besides the source's own text (the document's headers, the included files, the
    // options): jobs of another key get another folder, so no header can stand in for
    // another of the same name.
    CompileResult run(NvrtcJob job, const std::string& pchKey);

    // Whether a worker process is up now (for tests).
    bool running() const { return pid_ > 0; }

    // The folder of precompiled headers for processes of this user that have ended.
    static void removeAbandonedFolders(const std::filesystem::path& parent);

private:
    void start();
    void stop();

    CompileWorkerProcess process_;
    bool confined_;
    std::filesystem::path pchRoot_;
    int pid_ = -1;
    int in_ = -1;  // the worker's standard input
    int out_ = -1; // its standard output
    std::set<std::string> keys_;
};

} // namespace kw
