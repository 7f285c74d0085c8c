#pragma once
// Test helper: runs kwb-run (from KW_BIN_DIR) as a child process with pipes, for
// CLI exit-code tests and serve-protocol conversations. This file: POSIX.
#ifdef _WIN32
#include "gpu/ChildProcessWindows.hpp"
#else
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kwtest {

inline std::string kwbRun() { return std::string(KW_BIN_DIR) + "/kwb-run"; }

// The number a child is told for descriptor `fd`, which it inherits.
inline std::string inheritedNumber(int fd) { return std::to_string(fd); }

class ChildProcess {
public:
    // `inheritFd` >= 0 stays open in the child under the same number.
    explicit ChildProcess(const std::vector<std::string>& args, int inheritFd = -1)
    {
        int in[2], out[2], err[2];
        if (pipe(in) || pipe(out) || pipe(err))
            throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, err[1], 2);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
            posix_spawn_file_actions_addclose(&fa, fd);
        if (inheritFd >= 0)
            fcntl(inheritFd, F_SETFD, 0);
        std::vector<std::string> all{kwbRun()};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        if (posix_spawn(&pid_, all[0].c_str(), &fa, nullptr, argv.data(), environ) != 0)
            throw std::runtime_error("cannot start " + all[0]);
        posix_spawn_file_actions_destroy(&fa);
        close(in[0]);
        close(out[1]);
        close(err[1]);
        in_ = in[1];
        out_ = out[0];
        err_ = err[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~ChildProcess()
    {
        if (pid_ > 0 && !exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        for (int fd : {in_, out_, err_})
            if (fd >= 0)
                close(fd);
    }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    void write(const std::string& text)
    {
        std::size_t done = 0;
        while (done < text.size()) {
            ssize_t n = ::write(in_, text.data() + done, text.size() - done);
            if (n <= 0)
                throw std::runtime_error("child stdin closed");
            done += std::size_t(n);
        }
    }
    void send(const nlohmann::json& message) { write(message.dump() + "\n"); }
    void closeStdin()
    {
        close(in_);
        in_ = -1;
    }

    // One line of stdout (without '\n'); nullopt at EOF or timeout.
    std::optional<std::string> readLine(std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        for (;;) {
            if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            if (!fill(timeout))
                return std::nullopt;
        }
    }
    std::optional<nlohmann::json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        auto line = readLine(timeout);
        if (!line)
            return std::nullopt;
        return nlohmann::json::parse(*line);
    }
    std::vector<char> readBytes(std::size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        while (buffer_.size() < n)
            if (!fill(timeout))
                throw std::runtime_error("child output ended inside a binary frame");
        std::vector<char> out(buffer_.begin(), buffer_.begin() + std::ptrdiff_t(n));
        buffer_.erase(0, n);
        return out;
    }
    // The final reply for request `id`, skipping events (binary frames included).
    nlohmann::json replyFor(int id, std::chrono::milliseconds timeout = std::chrono::seconds(120))
    {
        for (;;) {
            auto m = receive(timeout);
            if (!m)
                throw std::runtime_error("no reply for request " + std::to_string(id) + "; stderr: " + readStderr());
            if (m->contains("binary"))
                readBytes((*m)["binary"].get<std::size_t>(), timeout);
            if (m->value("id", -1) == id && !m->contains("event"))
                return *m;
        }
    }

    std::string readAllStdout()
    {
        while (fill(std::chrono::seconds(120))) { }
        return std::exchange(buffer_, {});
    }
    std::string readStderr()
    {
        std::string s;
        char chunk[4096];
        pollfd p{err_, POLLIN, 0};
        while (poll(&p, 1, 100) > 0) {
            ssize_t n = read(err_, chunk, sizeof chunk);
            if (n <= 0)
                break;
            s.append(chunk, std::size_t(n));
        }
        return s;
    }
    int wait()
    {
        int status = 0;
        waitpid(pid_, &status, 0);
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    bool fill(std::chrono::milliseconds timeout)
    {
        pollfd p{out_, POLLIN, 0};
        if (poll(&p, 1, int(timeout.count())) <= 0)
            return false;
        char chunk[1 << 16];
        ssize_t n = read(out_, chunk, sizeof chunk);
        if (n <= 0)
            return false;
        buffer_.append(chunk, std::size_t(n));
        return true;
    }

    pid_t pid_ = -1;
    int in_ = -1, out_ = -1, err_ = -1;
    bool exited_ = false;
    std::string buffer_;
};

struct CommandResult {
    int exitCode;
    std::string out, err;
};

// Runs kwb-run with `args` to completion.
inline CommandResult runKwb(const std::vector<std::string>& args)
{
    ChildProcess child(args);
    child.closeStdin();
    CommandResult r;
    r.out = child.readAllStdout();
    r.err = child.readStderr();
    r.exitCode = child.wait();
    return r;
}

} // namespace kwtest
#endif
