#pragma once
// A runner started from a command line (`kwb-run serve`, `ssh host kwb-run serve`,
// `srun ... kwb-run serve`) through the shell, with its stdin and stdout as pipes.
// POSIX (RunnerProcess.cpp): `/bin/sh -c`, in a session of its own without a
// terminal, so an ssh that wants a password or a host-key answer fails with a message
// instead of waiting for one. Windows (RunnerProcessWindows.cpp): `cmd.exe /d /s /c`,
// in a job object that kill() ends as a whole. Its stderr is collected (the last few
// kilobytes) to explain an early end.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace kw {

class RunnerProcess {
public:
    // Throws kw::Error(Io) when the shell cannot be started.
    explicit RunnerProcess(const std::string& commandLine);
    ~RunnerProcess(); // kills the process group if still running
    RunnerProcess(const RunnerProcess&) = delete;
    RunnerProcess& operator=(const RunnerProcess&) = delete;

    int inputFd() const noexcept { return toChild_; }    // the runner's stdin
    int outputFd() const noexcept { return fromChild_; } // the runner's stdout
    const std::string& commandLine() const noexcept { return command_; }
    long pid() const noexcept { return pid_; }

    void closeInput(); // end of input: a runner exits after its last reply
    void kill();       // the whole process group (ssh and what it started)
    // Waits for the exit; a description such as "exited with status 255",
    // "was killed by signal 9" (POSIX) or "was stopped" (Windows, after kill()).
    // Also reaps the stderr reader.
    std::string wait();
    // The last lines the runner wrote to stderr (trimmed).
    std::string stderrTail() const;

private:
    void drainStderr();
    void keepStderr(const char* bytes, std::size_t n); // into the tail, under errMutex_

    std::string command_;
    long pid_ = -1;
    int toChild_ = -1, fromChild_ = -1, errFromChild_ = -1;
    bool reaped_ = false;
#ifdef _WIN32
    void* process_ = nullptr;         // HANDLE of cmd.exe
    void* job_ = nullptr;             // HANDLE of the job holding it and all it starts
    void* errPipe_ = nullptr;         // HANDLE: our end of its stderr
    std::atomic<bool> killed_{false}; // kill() may come from a watchdog's thread
#endif
    std::string exitText_;
    mutable std::mutex errMutex_;
    std::string errTail_;
    std::thread errReader_;
};

} // namespace kw
