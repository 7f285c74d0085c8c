// ParallelCopy through a ring of four 16 MiB slots, as a staged upload fills them: 512 MiB
// per pass, ten passes after two untimed ones, alone and then beside a thread of this
// process that keeps one core busy, bound to it (as another program, or the CUDA driver's own threads,
// do on a shared machine). Prints the throughput and the slowest slot of each case, and
// the ratio of the two throughputs: a copy that gives each thread a fixed share waits for
// the one the system holds back, so its ratio falls far below what the lost core explains.
//   bench_parallel_copy [worker threads, default: every core but one]
// Works against any ParallelCopy with this interface, so two builds compare side by side.
#include "cuda/ParallelCopy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Figures {
    double gbs = 0;     // median over the passes
    double worstMs = 0; // each pass's slowest slot, median over the passes
};

Figures measure(kw::cuda::ParallelCopy& copier, const std::vector<char>& src, std::vector<char>& ring, std::size_t slot)
{
    std::vector<double> gbs, worst;
    for (int pass = 0; pass < 12; ++pass) {
        double slowest = 0;
        const auto t0 = Clock::now();
        for (std::size_t off = 0, i = 0; off < src.size(); off += slot, ++i) {
            const auto s0 = Clock::now();
            copier.copy(ring.data() + (i % 4) * slot, src.data() + off, slot);
            slowest = std::max(slowest, std::chrono::duration<double>(Clock::now() - s0).count());
        }
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        if (pass >= 2) {
            gbs.push_back(double(src.size()) / s / 1e9);
            worst.push_back(slowest * 1e3);
        }
    }
    std::sort(gbs.begin(), gbs.end());
    std::sort(worst.begin(), worst.end());
    return {gbs[gbs.size() / 2], worst[worst.size() / 2]};
}

} // namespace

int main(int argc, char** argv)
{
    const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
    const unsigned workers = argc > 1 ? unsigned(std::atoi(argv[1])) : cores - 1;
    const std::size_t slot = std::size_t(16) << 20;
    std::vector<char> src(std::size_t(512) << 20, 1), ring(4 * slot, 0);
    kw::cuda::ParallelCopy copier(workers);

    const Figures alone = measure(copier, src, ring, slot);
    std::atomic<bool> stop{false};
    std::thread busy([&] {
        while (!stop.load(std::memory_order_relaxed)) { }
    });
    const Figures contended = measure(copier, src, ring, slot);
    stop = true;
    busy.join();

    std::printf("cores %u, copy threads %u\n", cores, workers + 1);
    std::printf("alone:        %6.2f GB/s, slowest slot %6.2f ms\n", alone.gbs, alone.worstMs);
    std::printf("one core busy: %6.2f GB/s, slowest slot %6.2f ms\n", contended.gbs, contended.worstMs);
    std::printf("ratio busy / alone: %.2f (a core of %u lost would give %.2f)\n", contended.gbs / alone.gbs, cores,
                double(cores - 1) / cores);
    return 0;
}
