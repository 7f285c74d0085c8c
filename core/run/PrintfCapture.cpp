#include "run/PrintfCapture.hpp"

#include "util/Error.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <process.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace kw {

namespace {

// The few descriptor calls, spelled for each platform.
#ifdef _WIN32
int sysDup(int fd) { return _dup(fd); }
int sysDup2(int fd, int to) { return _dup2(fd, to); }
int sysPipe(int fds[2]) { return _pipe(fds, 1 << 16, _O_BINARY | _O_NOINHERIT); }
long sysRead(int fd, char* buf, std::size_t n) { return _read(fd, buf, unsigned(n)); }
long sysWrite(int fd, const char* buf, std::size_t n) { return _write(fd, buf, unsigned(n)); }
int sysClose(int fd) { return _close(fd); }
int processId() { return _getpid(); }
#else
int sysDup(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }
int sysDup2(int fd, int to) { return dup2(fd, to); }
int sysPipe(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}
long sysRead(int fd, char* buf, std::size_t n) { return long(read(fd, buf, n)); }
long sysWrite(int fd, const char* buf, std::size_t n) { return long(write(fd, buf, n)); }
int sysClose(int fd) { return close(fd); }
int processId() { return int(getpid()); }
#endif

void writeAll(int fd, const std::string& s)
{
    std::size_t done = 0;
    while (done < s.size()) {
        long n = sysWrite(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw Error(ErrorCategory::Io, std::string("printf capture: write to stdout pipe failed: ")
                                               + std::strerror(errno));
        done += std::size_t(n);
    }
}

} // namespace

PrintfCapture::PrintfCapture()
{
    std::fflush(stdout);
    protocolFd_ = sysDup(1);
    int fds[2];
    if (protocolFd_ < 0 || sysPipe(fds) != 0)
        throw Error(ErrorCategory::Io, std::string("printf capture: cannot create the stdout pipe: ")
                                           + std::strerror(errno));
    if (sysDup2(fds[1], 1) < 0)
        throw Error(ErrorCategory::Io, std::string("printf capture: cannot move stdout onto the pipe: ")
                                           + std::strerror(errno));
    sysClose(fds[1]);
    readFd_ = fds[0];
    thread_ = std::thread([this] { drain(); });
}

PrintfCapture::~PrintfCapture()
{
    restoreStdout();
    if (thread_.joinable())
        thread_.join();
    if (readFd_ >= 0)
        sysClose(readFd_);
    if (protocolFd_ >= 0)
        sysClose(protocolFd_);
}

void PrintfCapture::restoreStdout()
{
    if (restored_)
        return;
    restored_ = true;
    std::fflush(stdout);
    // Replacing fd 1 closes the pipe's last write end: the drain thread sees EOF.
    sysDup2(protocolFd_, 1);
}

void PrintfCapture::drain()
{
    char chunk[1 << 14];
    for (;;) {
        long n = sysRead(readFd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        std::lock_guard lock(mutex_);
        if (n <= 0) {
            eof_ = true;
            changed_.notify_all();
            return;
        }
        buffer_.append(chunk, std::size_t(n));
        changed_.notify_all();
    }
}

std::string PrintfCapture::collect()
{
    if (restored_)
        return {};
    std::fflush(stdout);
    const std::string sentinel = "\n\x1e" "kwb-printf-end-" + std::to_string(processId()) + "-"
                                 + std::to_string(++sentinelCount_) + "\x1e\n";
    writeAll(1, sentinel);
    std::unique_lock lock(mutex_);
    std::size_t at = std::string::npos;
    // The sentinel goes through the same pipe after everything printed before it.
    changed_.wait_for(lock, std::chrono::seconds(30), [&] {
        at = buffer_.find(sentinel);
        return at != std::string::npos || eof_;
    });
    if (at == std::string::npos) {
        std::string all = std::move(buffer_);
        buffer_.clear();
        return all;
    }
    std::string text = buffer_.substr(0, at);
    buffer_.erase(0, at + sentinel.size());
    return text;
}

} // namespace kw
