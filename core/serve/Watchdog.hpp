#pragma once
// Enforces a job's time limit from its own thread: when the job is still running
// at the deadline, the expiry action runs (it replies and replaces the process).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace kw {

class Watchdog {
public:
    Watchdog();
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // Starts watching; `onExpire` runs on the watchdog thread at the deadline. A limit
    // too large to add to the clock means no deadline.
    void arm(std::chrono::milliseconds limit, std::function<void()> onExpire);
    // Stops watching. False when the expiry action has already started: the caller
    // must not reply (the action does) and should wait for the process to be replaced.
    bool disarm();

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable changed_;
    bool armed_ = false, fired_ = false, stop_ = false;
    std::chrono::steady_clock::time_point deadline_;
    std::function<void()> onExpire_;
    // Last: members are initialised in declaration order, and the thread reads all the above.
    std::thread thread_;
};

} // namespace kw
