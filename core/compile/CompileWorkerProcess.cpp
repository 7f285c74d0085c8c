#include "compile/CompileWorkerProcess.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/NvrtcInProcess.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <fmt/format.h>

#ifndef _WIN32
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
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

#ifdef _WIN32

CompileResult CompileWorkerProcess::run(const NvrtcJob& job) const
{
    // No sandbox here yet: Compiler refuses confined jobs before they come this far.
    if (job.confined)
        throw Error(ErrorCategory::Untrusted, "the compiler cannot be confined on this system");
    return runNvrtcInProcess(NvrtcLibrary::instance(), job);
}

#else

CompileResult CompileWorkerProcess::run(const NvrtcJob& job) const
{
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        throw Error(ErrorCategory::Internal, std::string("compile worker: pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    std::string exe = worker_.string();
    char arg1[] = "compile-worker";
    char* argv[] = {exe.data(), arg1, nullptr};
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (spawned != 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        throw Error(ErrorCategory::Internal, "cannot start the compile worker " + exe + ": " + std::strerror(spawned));
    }

    // The request is small next to a pipe's buffer only sometimes: write it while reading.
    const std::string payload = toJson(job).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::size_t written = 0;
    std::string output, errors;
    int inFd = in[1];
    fcntl(inFd, F_SETFL, O_NONBLOCK);
    signal(SIGPIPE, SIG_IGN);
    const auto deadline = std::chrono::steady_clock::now() + job.timeLimit;
    bool timedOut = false;
    bool outOpen = true, errOpen = true;
    while (outOpen || errOpen) {
        pollfd fds[3];
        nfds_t n = 0;
        if (outOpen)
            fds[n++] = {out[0], POLLIN, 0};
        if (errOpen)
            fds[n++] = {err[0], POLLIN, 0};
        if (inFd >= 0)
            fds[n++] = {inFd, POLLOUT, 0};
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        if (poll(fds, n, int(std::min<long long>(left.count(), 1000))) < 0 && errno != EINTR)
            break;
        for (nfds_t i = 0; i < n; ++i) {
            if (!fds[i].revents)
                continue;
            if (fds[i].fd == inFd) {
                const ssize_t w = write(inFd, payload.data() + written, payload.size() - written);
                if (w > 0)
                    written += std::size_t(w);
                if (w < 0 || written == payload.size()) {
                    close(inFd);
                    inFd = -1;
                }
                continue;
            }
            char chunk[1 << 16];
            const ssize_t r = read(fds[i].fd, chunk, sizeof chunk);
            if (r > 0) {
                (fds[i].fd == out[0] ? output : errors).append(chunk, std::size_t(r));
            } else {
                (fds[i].fd == out[0] ? outOpen : errOpen) = false;
            }
        }
    }
    if (inFd >= 0)
        close(inFd);
    close(out[0]);
    close(err[0]);
    if (timedOut)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }

    if (timedOut)
        return failed(job,
                      fmt::format("the compiler did not finish within {} s and was stopped",
                                  double(job.timeLimit.count()) / 1000.0));
    if (WIFSIGNALED(status))
        return failed(job,
                      fmt::format("the compiler crashed (signal {}) compiling this source; simplify the "
                                  "code around the last change",
                                  WTERMSIG(status)));
    CompileResult result;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && decodeCompileResult(output, result))
        return result;
    // The worker reports a failure of the machinery as "kwb-run: CATEGORY error: message";
    // a wall that could not be raised keeps its category (Untrusted).
    const std::string prefix = "kwb-run: ", untrusted = "untrusted error: ";
    std::string message = errors.rfind(prefix, 0) == 0 ? errors.substr(prefix.size()) : errors;
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    if (message.rfind(untrusted, 0) == 0) {
        const std::string first = message.substr(0, message.find('\n')); // not FailureReport's hint
        throw Error(ErrorCategory::Untrusted, first.substr(untrusted.size()));
    }
    throw Error(ErrorCategory::Nvrtc, message.empty() ? "the compile worker failed" : message);
}

#endif

} // namespace kw
