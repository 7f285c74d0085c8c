#pragma once
// memcpy spread over a few persistent threads: one thread cannot fill pinned
// staging buffers as fast as the copy engine empties them, nor empty them. The bytes go
// in chunks to whichever thread asks next, so a thread the system holds back (the cores
// are shared) delays a copy by one chunk at most, not by a fixed share of it.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace kw::cuda {

class ParallelCopy {
public:
    // How the destination is written. Streaming stores bypass the caches: the
    // destination's lines are not read first, which saves a third of the memory traffic
    // when the destination is not read again soon (a download's result), and costs when
    // it is (a staging slot the copy engine reads next).
    enum class Stores { cached, streaming };

    // `threads` workers in addition to the caller; 0 picks from the core count.
    explicit ParallelCopy(unsigned threads = 0);
    ~ParallelCopy();
    ParallelCopy(const ParallelCopy&) = delete;
    ParallelCopy& operator=(const ParallelCopy&) = delete;

    // Returns when all bytes are copied (streaming stores fenced). Small copies run on
    // the caller only.
    void copy(void* dst, const void* src, std::size_t bytes, Stores stores = Stores::cached);

private:
    void work();
    // Copies chunks of `generation`'s copy while any are left.
    void copyChunks(unsigned generation);
    // Waits until `value` differs from `old`: spinning for a while (see kSpin), then
    // asleep on wake_. A mutex and a condition variable rather than std::atomic::wait,
    // whose waiter pool lost wake-ups under Windows' C++ library (copies that never ended).
    template <typename T> T awaitChange(const std::atomic<T>& value, T old);
    void wakeSleepers();

    // A staged transfer hands out a chunk every few hundred microseconds: the workers
    // spin between chunks for a while (kSpin) instead of sleeping, since waking a
    // sleeping thread costs tens of microseconds, a tenth of a chunk's time.
    std::vector<std::thread> workers_;
    std::atomic<unsigned> generation_{0}; // a new copy or the stop is a new generation
    // The next chunk to hand out, with its copy's generation in the upper half, so a
    // thread that comes late for one copy never takes a chunk of the next.
    std::atomic<std::uint64_t> next_{0};
    std::atomic<unsigned> chunks_{0}; // chunks of the current copy
    std::atomic<unsigned> done_{0};   // of them, copied
    std::atomic<bool> stop_{false};
    char* dst_ = nullptr; // the current copy, written before next_ moves on
    const char* src_ = nullptr;
    std::size_t bytes_ = 0;
    std::size_t chunk_ = 0;
    Stores stores_ = Stores::cached;
    unsigned parts_ = 1;
    bool spin_ = true;
    std::mutex sleep_;
    std::condition_variable wake_;
};

} // namespace kw::cuda
