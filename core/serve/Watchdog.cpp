#include "serve/Watchdog.hpp"

namespace kw {

Watchdog::Watchdog()
    : thread_([this] { loop(); })
{
}

Watchdog::~Watchdog()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void Watchdog::arm(std::chrono::milliseconds limit, std::function<void()> onExpire)
{
    {
        std::lock_guard lock(mutex_);
        armed_ = true;
        fired_ = false;
        const auto now = std::chrono::steady_clock::now();
        const auto room
            = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::time_point::max() - now);
        deadline_ = limit < room ? now + limit : std::chrono::steady_clock::time_point::max();
        onExpire_ = std::move(onExpire);
    }
    changed_.notify_all();
}

bool Watchdog::disarm()
{
    std::lock_guard lock(mutex_);
    armed_ = false;
    return !fired_;
}

void Watchdog::loop()
{
    std::unique_lock lock(mutex_);
    while (!stop_) {
        if (!armed_ || deadline_ == std::chrono::steady_clock::time_point::max()) {
            changed_.wait(lock);
            continue;
        }
        if (changed_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_
            && std::chrono::steady_clock::now() >= deadline_) {
            armed_ = false;
            fired_ = true;
            auto action = std::move(onExpire_);
            lock.unlock();
            action();
            lock.lock();
        }
    }
}

} // namespace kw
