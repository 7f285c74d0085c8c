// ParallelCopy, the multi-threaded memcpy behind uploads and downloads through pinned
// staging: every byte arrives, nothing beyond the destination is touched, for sizes
// around the one-thread threshold and the 4 KiB slice boundaries, unaligned ends, any
// worker count, cached and streaming stores, and many copies through one instance.
#include "cuda/ParallelCopy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// Bytes that differ from their neighbours and from copy to copy (splitmix64 words).
std::vector<unsigned char> pattern(std::size_t n, unsigned seed)
{
    std::vector<unsigned char> v(n);
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (std::size_t i = 0; i < n; i += 8) {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        std::memcpy(v.data() + i, &z, std::min<std::size_t>(8, n - i));
    }
    return v;
}

constexpr std::size_t kGuard = 4096;
constexpr unsigned char kGuardByte = 0xA5;

// Copies `bytes` from offset srcOffset of a random source to offset dstOffset of a
// guarded destination, and checks the copy in full and the guards around it.
using Stores = kw::cuda::ParallelCopy::Stores;

void expectExactCopy(kw::cuda::ParallelCopy& copier, std::size_t bytes, std::size_t srcOffset, std::size_t dstOffset,
                     unsigned seed, Stores stores = Stores::cached)
{
    SCOPED_TRACE("bytes " + std::to_string(bytes) + ", source offset " + std::to_string(srcOffset)
                 + ", destination offset " + std::to_string(dstOffset)
                 + (stores == Stores::streaming ? ", streaming stores" : ", cached stores"));
    const auto src = pattern(bytes + srcOffset, seed);
    std::vector<unsigned char> dst(kGuard + dstOffset + bytes + kGuard, kGuardByte);
    unsigned char* target = dst.data() + kGuard + dstOffset;
    copier.copy(target, src.data() + srcOffset, bytes, stores);
    if (bytes > 0) // an empty vector's data() may be null, which memcmp may not take
        ASSERT_EQ(std::memcmp(target, src.data() + srcOffset, bytes), 0) << "the copy differs";
    for (std::size_t i = 0; i < kGuard + dstOffset; ++i)
        ASSERT_EQ(dst[i], kGuardByte) << "byte " << i << " before the destination was written";
    for (std::size_t i = kGuard + dstOffset + bytes; i < dst.size(); ++i)
        ASSERT_EQ(dst[i], kGuardByte) << "byte " << i - (kGuard + dstOffset + bytes) << " past the end was written";
}

const std::size_t kThreshold = 2u << 20; // below it the caller copies alone

} // namespace

TEST(ParallelCopy, EverySizeAroundTheThresholdAndTheSlicesArrivesExactly)
{
    for (unsigned threads : {0u, 1u, 3u, 7u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        kw::cuda::ParallelCopy copier(threads);
        for (Stores stores : {Stores::cached, Stores::streaming})
            for (std::size_t bytes :
                 {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(4095), std::size_t(4097), kThreshold - 1,
                  kThreshold, kThreshold + 1, kThreshold + 4096 * 3 + 17, std::size_t(16) << 20,
                  (std::size_t(16) << 20) + 12345})
                expectExactCopy(copier, bytes, 0, 0, unsigned(bytes) + threads, stores);
    }
}

TEST(ParallelCopy, UnalignedSourcesAndDestinationsArriveExactly)
{
    kw::cuda::ParallelCopy copier(3);
    for (Stores stores : {Stores::cached, Stores::streaming})
        for (std::size_t srcOffset : {1u, 7u, 4093u})
            for (std::size_t dstOffset : {3u, 8u, 15u, 4095u}) {
                expectExactCopy(copier, kThreshold * 3 + 1001, srcOffset, dstOffset,
                                unsigned(srcOffset * 31 + dstOffset), stores);
                expectExactCopy(copier, 77, srcOffset, dstOffset, unsigned(srcOffset + dstOffset), stores);
            }
}

TEST(ParallelCopy, OneInstanceServesManyCopiesInARow)
{
    // The workers wait for each new copy; none may run an old one again or miss one.
    kw::cuda::ParallelCopy copier(3);
    for (unsigned round = 0; round < 40; ++round)
        expectExactCopy(copier, kThreshold + round * 65537, round % 5, (round * 3) % 11, round);
}

TEST(ParallelCopy, ASliceSmallerThanAPageStillCoversEveryByte)
{
    // Seven workers and a little over the threshold: the chunks' rounding to 4 KiB
    // leaves the last one short; it must take what is left.
    kw::cuda::ParallelCopy copier(7);
    for (std::size_t extra : {std::size_t(1), std::size_t(4095), std::size_t(8 * 4096 - 1)})
        expectExactCopy(copier, kThreshold + extra, 0, 0, unsigned(extra));
}

TEST(ParallelCopy, WorkersAsleepBetweenCopiesWakeForEachOne)
{
    // A pause longer than the workers spin puts them to sleep: every copy after it must
    // wake them all and end. A lost wake-up hangs (ctest's timeout fails it).
    kw::cuda::ParallelCopy copier(3);
    for (unsigned round = 0; round < 60; ++round) {
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        expectExactCopy(copier, kThreshold + 4096 * round, 0, 0, round, round % 2 ? Stores::streaming : Stores::cached);
    }
}

TEST(ParallelCopy, WorkersThatComeLateNeverTouchTheNextCopy)
{
    // Far more workers than cores: most of them wake after their copy was finished by the
    // others, often while the next one runs. Each copy must be exact and hold nothing of
    // the one before (a late worker writing an old chunk would show here).
    kw::cuda::ParallelCopy copier(31);
    for (unsigned round = 0; round < 150; ++round)
        expectExactCopy(copier, kThreshold + (round % 7) * 300001, round % 3, (round * 5) % 13, round + 1000,
                        round % 2 ? Stores::streaming : Stores::cached);
}
