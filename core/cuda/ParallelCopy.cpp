#include "cuda/ParallelCopy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace kw::cuda {

namespace {

constexpr std::size_t kParallelThreshold = 2u << 20; // below this one thread is fastest
constexpr auto kSpin = std::chrono::milliseconds(2); // spin this long before sleeping
// Chunks: about this many per thread, each at least kMinChunk and whole 4 KiB pages (no
// two threads write one page).
constexpr std::size_t kChunksPerThread = 8;
constexpr std::size_t kMinChunk = 64u << 10;

void relax()
{
#if defined(__x86_64__) || defined(_M_X64)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// memcpy whose stores bypass the caches (SSE2, in every x86-64), fenced so the bytes
// are visible to the thread that waits for the copy; memcpy elsewhere.
void streamingCopy(char* dst, const char* src, std::size_t bytes)
{
#if defined(__x86_64__) || defined(_M_X64)
    const std::size_t head = std::min(bytes, (16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15);
    std::memcpy(dst, src, head);
    std::size_t i = head;
    for (; i + 64 <= bytes; i += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
        const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    std::memcpy(dst + i, src + i, bytes - i);
    _mm_sfence();
#else
    std::memcpy(dst, src, bytes);
#endif
}

void copyBytes(char* dst, const char* src, std::size_t bytes, ParallelCopy::Stores stores)
{
    if (stores == ParallelCopy::Stores::streaming)
        streamingCopy(dst, src, bytes);
    else
        std::memcpy(dst, src, bytes);
}

} // namespace

ParallelCopy::ParallelCopy(unsigned threads)
{
    // Half the cores, two to eight copying: a copy into pinned memory is bound by the
    // memory's bandwidth, and more threads only contend with the driver's own work. On a
    // 16-core H100 host, with the copy handed out in chunks, 8 reached 0.96 to 0.97 of a
    // pinned copy both ways in every process pair, 16 0.93 to 0.96 (docs/benchmarks.md).
    // The workers sleep between transfers.
    if (threads == 0) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        threads = std::clamp(cores / 2, std::min(2u, cores), 8u) - 1;
    }
    parts_ = threads + 1;
    // Spinning threads that outnumber the cores would take the time of those copying.
    spin_ = parts_ <= std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < threads; ++i)
        workers_.emplace_back([this] { work(); });
}

ParallelCopy::~ParallelCopy()
{
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    wakeSleepers();
    for (auto& t : workers_)
        t.join();
}

template <typename T> T ParallelCopy::awaitChange(const std::atomic<T>& value, T old)
{
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 0; spin_; ++i) {
        const T now = value.load(std::memory_order_acquire);
        if (now != old)
            return now;
        if ((i & 1023) == 1023 && std::chrono::steady_clock::now() > until)
            break;
        relax();
    }
    std::unique_lock lock(sleep_);
    T now = old;
    wake_.wait(lock, [&] { return (now = value.load(std::memory_order_acquire)) != old; });
    return now;
}

void ParallelCopy::wakeSleepers()
{
    // Taking the lock orders the change before a sleeper's test of it: a thread that
    // tested the old value is already waiting when notified.
    {
        const std::lock_guard lock(sleep_);
    }
    wake_.notify_all();
}

void ParallelCopy::copyChunks(unsigned generation)
{
    std::uint64_t next = next_.load(std::memory_order_acquire);
    for (;;) {
        const auto index = unsigned(next);
        if (unsigned(next >> 32) != generation || index >= chunks_.load(std::memory_order_relaxed))
            return;
        if (!next_.compare_exchange_weak(next, next + 1, std::memory_order_acq_rel, std::memory_order_acquire))
            continue;
        // The copy cannot end before this chunk is done: its fields stay as published.
        const std::size_t begin = chunk_ * index;
        copyBytes(dst_ + begin, src_ + begin, std::min(chunk_, bytes_ - begin), stores_);
        if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks_.load(std::memory_order_relaxed))
            wakeSleepers();
        next = next_.load(std::memory_order_acquire);
    }
}

void ParallelCopy::copy(void* dst, const void* src, std::size_t bytes, Stores stores)
{
    if (bytes < kParallelThreshold || workers_.empty()) {
        if (bytes > 0) // an empty buffer may have no storage: memcpy of null is undefined even for 0 bytes
            copyBytes(static_cast<char*>(dst), static_cast<const char*>(src), bytes, stores);
        return;
    }
    dst_ = static_cast<char*>(dst);
    src_ = static_cast<const char*>(src);
    bytes_ = bytes;
    stores_ = stores;
    chunk_ = std::max(kMinChunk, ((bytes / (parts_ * kChunksPerThread)) + 4095) & ~std::size_t(4095));
    const auto chunks = unsigned((bytes + chunk_ - 1) / chunk_);
    chunks_.store(chunks, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    const unsigned generation = generation_.load(std::memory_order_relaxed) + 1;
    next_.store(std::uint64_t(generation) << 32, std::memory_order_release); // publishes the fields above
    generation_.store(generation, std::memory_order_release);
    wakeSleepers();
    copyChunks(generation);
    for (unsigned done = done_.load(std::memory_order_acquire); done != chunks;)
        done = awaitChange(done_, done);
}

void ParallelCopy::work()
{
    unsigned seen = 0;
    for (;;) {
        seen = awaitChange(generation_, seen);
        if (stop_.load(std::memory_order_relaxed))
            return;
        copyChunks(seen);
    }
}

} // namespace kw::cuda
