#pragma once
// Captures what the device printf writes to the process's stdout (fd 1).
// Installed before the driver is loaded: fd 1 becomes a pipe drained by a thread
// (an undrained pipe blocks the device sync forever) and the original stdout stays
// reachable through protocolFd() for the protocol or the CLI's own output.
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace kw {

class PrintfCapture {
public:
    PrintfCapture();  // throws kw::Error(Io) when the pipe cannot be set up
    ~PrintfCapture(); // puts the original stdout back on fd 1
    PrintfCapture(const PrintfCapture&) = delete;
    PrintfCapture& operator=(const PrintfCapture&) = delete;

    // A descriptor for the original stdout.
    int protocolFd() const noexcept { return protocolFd_; }

    // Everything printed to fd 1 since the last call. Flushes stdio, writes a unique
    // sentinel through fd 1 and waits until the drain thread has seen it, so text the
    // driver printed before this call is complete.
    std::string collect();

    // Puts the original stdout back on fd 1 (before exec); the object is inert after.
    void restoreStdout();

private:
    void drain();

    int protocolFd_ = -1;
    int readFd_ = -1;
    bool restored_ = false;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::string buffer_;
    bool eof_ = false;
    unsigned long long sentinelCount_ = 0;
};

} // namespace kw
