#include "launch/PrintfCapture.hpp"

#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

namespace kw {

namespace {

#ifdef _WIN32
int processId() { return _getpid(); }
#else
int processId() { return int(getpid()); }
#endif

void writeAll(int fd, const std::string& s)
{
    std::size_t done = 0;
    while (done < s.size()) {
        long n = fd::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw Error(ErrorCategory::Io,
                        std::string("printf capture: write to stdout pipe failed: ") + std::strerror(errno));
        done += std::size_t(n);
    }
}

} // namespace

PrintfCapture::PrintfCapture()
{
    std::fflush(stdout);
    protocolFd_ = fd::duplicate(1);
    int fds[2];
    if (protocolFd_ < 0 || fd::makePipe(fds) != 0)
        throw Error(ErrorCategory::Io,
                    std::string("printf capture: cannot create the stdout pipe: ") + std::strerror(errno));
    if (fd::duplicateTo(fds[1], 1) < 0)
        throw Error(ErrorCategory::Io,
                    std::string("printf capture: cannot move stdout onto the pipe: ") + std::strerror(errno));
    fd::close(fds[1]);
    readFd_ = fds[0];
    thread_ = std::thread([this] { drain(); });
}

PrintfCapture::~PrintfCapture()
{
    restoreStdout();
    if (thread_.joinable())
        thread_.join();
    if (readFd_ >= 0)
        fd::close(readFd_);
    if (protocolFd_ >= 0)
        fd::close(protocolFd_);
}

void PrintfCapture::restoreStdout()
{
    if (restored_)
        return;
    restored_ = true;
    std::fflush(stdout);
    // Replacing fd 1 closes the pipe's last write end: the drain thread sees EOF.
    fd::duplicateTo(protocolFd_, 1);
}

void PrintfCapture::drain()
{
    char chunk[1 << 14];
    for (;;) {
        long n = fd::read(readFd_, chunk, sizeof chunk);
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
    const std::string sentinel = "\n\x1e"
                                 "kwb-printf-end-"
        + std::to_string(processId()) + "-" + std::to_string(++sentinelCount_) + "\x1e\n";
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
