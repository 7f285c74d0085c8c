#include "compile/CompileWorkerProcess.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/NvrtcInProcess.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/PipeExchange.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <fmt/format.h>

#ifndef _WIN32
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

namespace kw {

namespace {

CompileResult failed(const NvrtcJob& job, const std::string& message)
{
    CompileResult r;
    Diagnostic d;
    d.file = job.sourceName;
    d.message = message;
    r.diagnostics.push_back(d);
    r.log = message + "\n";
    return r;
}

} // namespace

CompileWorkerProcess::CompileWorkerProcess(std::filesystem::path worker)
    : worker_(std::move(worker))
{
}

std::filesystem::path CompileWorkerProcess::besideThisProgram()
{
#ifdef _WIN32
    return executableDir() / "kwb-run.exe";
#else
    return executableDir() / "kwb-run";
#endif
}

CompileResult CompileWorkerProcess::timedOutResult(const NvrtcJob& job)
{
    return failed(
        job,
        fmt::format("the compiler did not finish within {} s and was stopped", double(job.timeLimit.count()) / 1000.0));
}

CompileResult CompileWorkerProcess::crashedResult(const NvrtcJob& job, int signal)
{
    CompileResult r
        = failed(job,
                 fmt::format("the compiler crashed (signal {}) compiling this source; simplify the code around the "
                             "last change",
                             signal));
    r.crashed = true;
    return r;
}

Error CompileWorkerProcess::machineryError(const std::string& errors)
{
    // The worker reports a failure of the machinery as "kwb-run: CATEGORY error: message";
    // a wall that could not be raised keeps its category (Untrusted).
    const std::string prefix = "kwb-run: ", untrusted = "untrusted error: ";
    std::string message = errors.rfind(prefix, 0) == 0 ? errors.substr(prefix.size()) : errors;
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    if (message.rfind(untrusted, 0) == 0) {
        const std::string first = message.substr(0, message.find('\n')); // not FailureReport's hint
        return Error(ErrorCategory::Untrusted, first.substr(untrusted.size()));
    }
    return Error(ErrorCategory::Nvrtc, message.empty() ? "the compile worker failed" : message);
}

#ifdef _WIN32

int CompileWorkerProcess::spawn(const std::vector<std::string>&, int, int, int) const
{
    throw Error(ErrorCategory::Internal, "the compile worker runs in the process on this system");
}

CompileResult CompileWorkerProcess::run(const NvrtcJob& job) const
{
    // No sandbox here: Compiler refuses confined jobs before they come this far.
    if (job.confined)
        throw Error(ErrorCategory::Untrusted, CompilerSandbox::unavailableReason());
    return runNvrtcInProcess(NvrtcLibrary::instance(), job);
}

#else

int CompileWorkerProcess::spawn(const std::vector<std::string>& args, int in, int out, int err) const
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_adddup2(&fa, err, 2);
    std::string exe = worker_.string();
    std::vector<std::string> words = args;
    std::vector<char*> argv{exe.data()};
    for (auto& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (spawned != 0)
        throw Error(ErrorCategory::Internal, "cannot start the compile worker " + exe + ": " + std::strerror(spawned));
    return pid;
}

CompileResult CompileWorkerProcess::run(const NvrtcJob& job) const
{
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        throw Error(ErrorCategory::Internal, std::string("compile worker: pipe: ") + std::strerror(errno));
    pid_t pid = -1;
    try {
        pid = spawn({"compile-worker"}, in[0], out[1], err[1]);
    } catch (const Error&) {
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
            close(fd);
        throw;
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);

    const std::string payload = toJson(job).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    int inFd = in[1];
    const PipeExchangeOutcome o = PipeExchange::run(inFd, payload, true, {out[0], err[0]},
                                                    std::chrono::steady_clock::now() + job.timeLimit, nullptr);
    const bool timedOut = o.timedOut;
    const std::string& output = o.read[0];
    const std::string& errors = o.read[1];
    if (inFd >= 0)
        close(inFd);
    close(out[0]);
    close(err[0]);
    if (timedOut)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }

    if (timedOut)
        return timedOutResult(job);
    if (WIFSIGNALED(status))
        return crashedResult(job, WTERMSIG(status));
    CompileResult result;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && decodeCompileResult(output, result))
        return result;
    throw machineryError(errors);
}

#endif

} // namespace kw
