#pragma once
// memcpy spread over a few persistent threads: one thread cannot fill pinned
// staging buffers as fast as the copy engine empties them.
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace kw::cuda {

class ParallelCopy {
public:
    // `threads` workers in addition to the caller; 0 picks from the core count.
    explicit ParallelCopy(unsigned threads = 0);
    ~ParallelCopy();
    ParallelCopy(const ParallelCopy&) = delete;
    ParallelCopy& operator=(const ParallelCopy&) = delete;

    // Returns when all bytes are copied. Small copies run on the caller only.
    void copy(void* dst, const void* src, std::size_t bytes);

private:
    void work(unsigned index);
    void copyPart(unsigned part) const;

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable start_, done_;
    unsigned generation_ = 0;
    unsigned pending_ = 0;
    bool stop_ = false;
    char* dst_ = nullptr;
    const char* src_ = nullptr;
    std::size_t bytes_ = 0;
    unsigned parts_ = 1;
};

} // namespace kw::cuda
