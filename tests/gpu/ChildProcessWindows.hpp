#pragma once
// Test helper, Windows: runs kwb-run.exe (from KW_BIN_DIR) with pipes on its standard
// handles, the same interface as the POSIX ChildProcess. A thread per output pipe
// reads into a buffer, which gives the reads their time limits.
#include <nlohmann/json.hpp>

#ifndef NOMINMAX
#define NOMINMAX // std::min and std::max in the tests that include this
#endif
#include <windows.h>

#include <io.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kwtest {

inline std::string kwbRun() { return std::string(KW_BIN_DIR) + "/kwb-run.exe"; }

// The number a child is told for descriptor `fd`, which it inherits: Windows hands
// over OS handles, not C runtime descriptors.
inline std::string inheritedNumber(int fd)
{
    const HANDLE h = reinterpret_cast<HANDLE>(_get_osfhandle(fd));
    SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    return std::to_string(reinterpret_cast<std::uintptr_t>(h));
}

class ChildProcess {
public:
    // `inheritFd` >= 0 is inherited by the child (see inheritedNumber).
    explicit ChildProcess(const std::vector<std::string>& args, int inheritFd = -1)
    {
        SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
        HANDLE inR, outW, errW;
        if (!CreatePipe(&inR, &in_, &inherit, 0) || !CreatePipe(&out_.pipe, &outW, &inherit, 0)
            || !CreatePipe(&err_.pipe, &errW, &inherit, 0))
            throw std::runtime_error("CreatePipe failed");
        for (HANDLE own : {in_, out_.pipe, err_.pipe}) // our ends stay with us
            SetHandleInformation(own, HANDLE_FLAG_INHERIT, 0);
        if (inheritFd >= 0)
            inheritedNumber(inheritFd);
        std::string cmd = quote(kwbRun());
        for (const auto& a : args)
            cmd += " " + quote(a);
        STARTUPINFOA si{};
        si.cb = sizeof si;
        si.dwFlags = STARTF_USESTDHANDLES;
        si.hStdInput = inR;
        si.hStdOutput = outW;
        si.hStdError = errW;
        PROCESS_INFORMATION pi{};
        const std::string exe = kwbRun();
        if (!CreateProcessA(exe.c_str(), cmd.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi))
            throw std::runtime_error("cannot start " + exe + " (Windows error " + std::to_string(GetLastError()) + ")");
        CloseHandle(pi.hThread);
        process_ = pi.hProcess;
        for (HANDLE childs : {inR, outW, errW})
            CloseHandle(childs);
        out_.start();
        err_.start();
    }
    ~ChildProcess()
    {
        if (process_ && !exited_) {
            TerminateProcess(process_, 137);
            WaitForSingleObject(process_, INFINITE);
        }
        if (in_)
            CloseHandle(in_);
        out_.stop();
        err_.stop();
        if (process_)
            CloseHandle(process_);
    }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    void write(const std::string& text)
    {
        std::size_t done = 0;
        while (done < text.size()) {
            DWORD n = 0;
            if (!in_ || !WriteFile(in_, text.data() + done, DWORD(text.size() - done), &n, nullptr) || n == 0)
                throw std::runtime_error("child stdin closed");
            done += n;
        }
    }
    void send(const nlohmann::json& message) { write(message.dump() + "\n"); }
    void closeStdin()
    {
        CloseHandle(in_);
        in_ = nullptr;
    }

    std::optional<std::string> readLine(std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        std::unique_lock lock(out_.mutex);
        const auto until = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (auto nl = out_.data.find('\n'); nl != std::string::npos) {
                std::string line = out_.data.substr(0, nl);
                out_.data.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r')
                    line.pop_back();
                return line;
            }
            if (out_.eof || !out_.changed.wait_until(lock, until, [&] {
                    return out_.eof || out_.data.find('\n') != std::string::npos;
                }))
                if (out_.data.find('\n') == std::string::npos)
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
        std::unique_lock lock(out_.mutex);
        if (!out_.changed.wait_for(lock, timeout, [&] { return out_.eof || out_.data.size() >= n; })
            || out_.data.size() < n)
            throw std::runtime_error("child output ended inside a binary frame");
        std::vector<char> bytes(out_.data.begin(), out_.data.begin() + std::ptrdiff_t(n));
        out_.data.erase(0, n);
        return bytes;
    }
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

    std::string readAllStdout() { return out_.takeAllAfterEof(std::chrono::seconds(120)); }
    std::string readStderr() { return err_.takeAllAfterEof(std::chrono::milliseconds(100)); }
    int wait()
    {
        WaitForSingleObject(process_, INFINITE);
        DWORD code = 0;
        GetExitCodeProcess(process_, &code);
        exited_ = true;
        return int(code);
    }

private:
    struct Reader {
        HANDLE pipe = nullptr;
        std::thread thread;
        std::mutex mutex;
        std::condition_variable changed;
        std::string data;
        bool eof = false;

        void start()
        {
            thread = std::thread([this] {
                char chunk[1 << 16];
                DWORD n = 0;
                while (ReadFile(pipe, chunk, sizeof chunk, &n, nullptr) && n > 0) {
                    std::lock_guard lock(mutex);
                    data.append(chunk, n);
                    changed.notify_all();
                }
                std::lock_guard lock(mutex);
                eof = true;
                changed.notify_all();
            });
        }
        void stop()
        {
            if (thread.joinable())
                thread.join(); // the child is gone, so the pipe has ended
            CloseHandle(pipe);
        }
        std::string takeAllAfterEof(std::chrono::milliseconds timeout)
        {
            std::unique_lock lock(mutex);
            changed.wait_for(lock, timeout, [&] { return eof; });
            return std::exchange(data, {});
        }
    };

    static std::string quote(const std::string& arg)
    {
        if (!arg.empty() && arg.find_first_of(" \t\"") == std::string::npos)
            return arg;
        std::string q = "\"";
        for (char c : arg)
            q += c == '"' ? std::string("\\\"") : std::string(1, c);
        return q + "\"";
    }

    HANDLE process_ = nullptr;
    HANDLE in_ = nullptr;
    Reader out_, err_;
    bool exited_ = false;
};

struct CommandResult {
    int exitCode;
    std::string out, err;
};

// Text output: the C runtime writes line ends as "\r\n" on Windows.
inline std::string unixLineEnds(std::string text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n'))
            out += text[i];
    return out;
}

inline CommandResult runKwb(const std::vector<std::string>& args)
{
    ChildProcess child(args);
    child.closeStdin();
    CommandResult r;
    r.out = unixLineEnds(child.readAllStdout());
    r.err = unixLineEnds(child.readStderr());
    r.exitCode = child.wait();
    return r;
}

} // namespace kwtest
