#include "cuda/ParallelCopy.hpp"

#include <algorithm>
#include <cstring>

namespace kw::cuda {

namespace {
constexpr std::size_t kParallelThreshold = 2u << 20; // below this one thread is fastest
}

ParallelCopy::ParallelCopy(unsigned threads)
{
    if (threads == 0)
        threads = std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u) - 1;
    parts_ = threads + 1;
    for (unsigned i = 0; i < threads; ++i)
        workers_.emplace_back([this, i] { work(i + 1); });
}

ParallelCopy::~ParallelCopy()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void ParallelCopy::copyPart(unsigned part) const
{
    // 4 KiB aligned slices so no two threads share a page.
    const std::size_t slice = ((bytes_ / parts_) + 4095) & ~std::size_t(4095);
    const std::size_t begin = std::min(bytes_, slice * part);
    const std::size_t end = part + 1 == parts_ ? bytes_ : std::min(bytes_, begin + slice);
    if (end > begin)
        std::memcpy(dst_ + begin, src_ + begin, end - begin);
}

void ParallelCopy::copy(void* dst, const void* src, std::size_t bytes)
{
    if (bytes < kParallelThreshold || workers_.empty()) {
        if (bytes > 0) // an empty buffer may have no storage: memcpy of null is undefined even for 0 bytes
            std::memcpy(dst, src, bytes);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        dst_ = static_cast<char*>(dst);
        src_ = static_cast<const char*>(src);
        bytes_ = bytes;
        pending_ = unsigned(workers_.size());
        ++generation_;
    }
    start_.notify_all();
    copyPart(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
}

void ParallelCopy::work(unsigned index)
{
    unsigned seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            start_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_)
                return;
            seen = generation_;
        }
        copyPart(index);
        {
            std::lock_guard lock(mutex_);
            --pending_;
        }
        done_.notify_one();
    }
}

} // namespace kw::cuda
