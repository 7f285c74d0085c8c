#include "serve/RunnerProcess.hpp"

#include "util/Error.hpp"

#ifndef _WIN32
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace kw {

namespace {
constexpr std::size_t kTailBytes = 4096;
}

void RunnerProcess::keepStderr(const char* bytes, std::size_t n)
{
    std::lock_guard lock(errMutex_);
    errTail_.append(bytes, n);
    if (errTail_.size() > 2 * kTailBytes)
        errTail_.erase(0, errTail_.size() - kTailBytes);
}

#ifndef _WIN32

RunnerProcess::RunnerProcess(const std::string& commandLine)
    : command_(commandLine)
{
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC))
        throw Error(ErrorCategory::Io, std::string("cannot create pipes for the runner: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0)
        throw Error(ErrorCategory::Io, std::string("cannot start the runner: ") + std::strerror(errno));
    if (pid == 0) {
        // A new session: no controlling terminal, so ssh cannot prompt, and one
        // process group to kill.
        ::setsid();
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::signal(SIGPIPE, SIG_DFL);
        ::setenv("SSH_ASKPASS_REQUIRE", "never", 1);
        ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    pid_ = pid;
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    toChild_ = in[1];
    fromChild_ = out[0];
    errFromChild_ = err[0];
    // Writing to a runner that has gone must be an error, not a signal.
    ::signal(SIGPIPE, SIG_IGN);
    errReader_ = std::thread([this] { drainStderr(); });
}

RunnerProcess::~RunnerProcess()
{
    if (!reaped_) {
        kill();
        wait();
    }
    for (int fd : {toChild_, fromChild_})
        if (fd >= 0)
            ::close(fd);
}

void RunnerProcess::drainStderr()
{
    char chunk[4096];
    for (;;) {
        const ssize_t n = ::read(errFromChild_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        keepStderr(chunk, std::size_t(n));
    }
    ::close(errFromChild_);
}

void RunnerProcess::closeInput()
{
    if (toChild_ >= 0) {
        ::close(toChild_);
        toChild_ = -1;
    }
}

void RunnerProcess::kill()
{
    if (pid_ > 0 && !reaped_)
        ::kill(-pid_t(pid_), SIGKILL);
}

std::string RunnerProcess::wait()
{
    if (!reaped_) {
        int status = 0;
        while (::waitpid(pid_t(pid_), &status, 0) < 0 && errno == EINTR) { }
        reaped_ = true;
        if (WIFEXITED(status))
            exitText_ = "exited with status " + std::to_string(WEXITSTATUS(status));
        else if (WIFSIGNALED(status))
            exitText_ = "was killed by signal " + std::to_string(WTERMSIG(status));
        // Whatever the shell started may still hold stderr open: end the group.
        ::kill(-pid_t(pid_), SIGKILL);
        if (errReader_.joinable())
            errReader_.join();
    }
    return exitText_;
}

#endif

std::string RunnerProcess::stderrTail() const
{
    std::lock_guard lock(errMutex_);
    std::string s = errTail_;
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

} // namespace kw
