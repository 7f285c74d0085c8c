// StagedTransfer, the pinned staging ring behind uploads and downloads, on a device that
// lives in host memory and runs its queued copies only when waited for, as a GPU's copy
// engine may: every byte arrives for sizes around the slot and the ring, odd sizes and
// rings of other shapes; and a slot is never refilled (upload) or read (download) before
// the copy queued from it or into it has run, which a GPU would show only now and then.
#include "cuda/StagedTransfer.hpp"
#include "support/ScopedEnvironment.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace {

using kw::cuda::StagedTransfer;

class QueuedDevice : public kw::cuda::StagingDevice {
public:
    explicit QueuedDevice(std::size_t bytes)
        : memory(bytes + 64, std::byte{0xEE})
    {
    }

    CUdeviceptr base() const { return CUdeviceptr(reinterpret_cast<std::uintptr_t>(memory.data())); }

    void* allocateSlot(std::size_t bytes) override
    {
        ++slotsAllocated;
        slotBytes = bytes;
        return ::operator new(bytes);
    }
    void freeSlot(void* slot) noexcept override { ::operator delete(slot); }
    void toDevice(CUdeviceptr dst, const void* src, std::size_t bytes, CUstream, const std::string&) override
    {
        checkInside(dst, bytes);
        queue.push_back([=] { std::memcpy(reinterpret_cast<void*>(dst), src, bytes); });
    }
    void toHost(void* dst, CUdeviceptr src, std::size_t bytes, CUstream, const std::string&) override
    {
        checkInside(src, bytes);
        queue.push_back([=] { std::memcpy(dst, reinterpret_cast<const void*>(src), bytes); });
    }
    void markSlot(std::size_t slot, CUstream) override
    {
        if (marks.size() <= slot)
            marks.resize(slot + 1, 0);
        marks[slot] = queue.size();
    }
    void waitSlot(std::size_t slot, const std::string&) override { runUpTo(slot < marks.size() ? marks[slot] : 0); }
    void waitAll(CUstream, const std::string&) override { runUpTo(queue.size()); }

    // Runs the queued copies up to `end`, no more: what a wait guarantees.
    void runUpTo(std::size_t end)
    {
        for (; done < end; ++done)
            queue[done]();
    }
    void checkInside(CUdeviceptr p, std::size_t bytes) const
    {
        ASSERT_GE(p, base());
        ASSERT_LE(p + bytes, base() + memory.size() - 64) << "a copy beyond the device buffer";
    }

    std::vector<std::byte> memory; // the device buffer, then 64 guard bytes
    std::vector<std::function<void()>> queue;
    std::vector<std::size_t> marks;
    std::size_t done = 0, slotsAllocated = 0, slotBytes = 0;
};

std::vector<std::byte> pattern(std::size_t n, unsigned seed)
{
    std::vector<std::byte> v(n);
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (std::size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v[i] = std::byte(x >> 24);
    }
    return v;
}

std::size_t firstDifference(const std::byte* a, const std::byte* b, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] != b[i])
            return i;
    return n;
}

void roundTrip(const StagedTransfer::Ring& ring, std::size_t bytes)
{
    SCOPED_TRACE("slot " + std::to_string(ring.slotBytes) + " x " + std::to_string(ring.slots) + ", bytes "
                 + std::to_string(bytes));
    auto owned = std::make_unique<QueuedDevice>(bytes);
    QueuedDevice& device = *owned;
    StagedTransfer transfer(ring, std::move(owned));
    const auto host = pattern(bytes, unsigned(bytes));

    transfer.upload(host.data(), device.base(), bytes, nullptr, "p");
    EXPECT_EQ(device.done, device.queue.size()) << "upload returned before its copies ran";
    ASSERT_EQ(firstDifference(device.memory.data(), host.data(), bytes), bytes) << "the device differs here";
    for (std::size_t i = bytes; i < device.memory.size(); ++i)
        ASSERT_EQ(device.memory[i], std::byte{0xEE}) << "written past the end at " << i;

    std::vector<std::byte> back(bytes + 16, std::byte{0x11});
    const std::size_t queued = device.queue.size();
    transfer.download(device.base(), back.data(), bytes, nullptr, "p");
    EXPECT_EQ(device.done, device.queue.size());
    const std::size_t chunks = (bytes + ring.slotBytes - 1) / ring.slotBytes;
    EXPECT_EQ(device.queue.size() - queued, chunks) << "one device copy per chunk";
    ASSERT_EQ(firstDifference(back.data(), host.data(), bytes), bytes) << "the download differs here";
    for (std::size_t i = bytes; i < back.size(); ++i)
        ASSERT_EQ(back[i], std::byte{0x11}) << "written past the end at " << i;
    EXPECT_LE(device.slotsAllocated, ring.slots);
    EXPECT_EQ(device.slotsAllocated, std::min(ring.slots, std::max<std::size_t>(chunks, bytes ? 1 : 0)));
}

} // namespace

TEST(StagedTransfer, EveryByteArrivesForSizesAroundTheSlotAndTheRing)
{
    const StagedTransfer::Ring ring{64 << 10, 4, 2};
    const std::size_t slot = ring.slotBytes, wrap = ring.slots * slot;
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(4097), slot - 1, slot,
                              slot + 1, wrap - 3, wrap, wrap + 1, 2 * wrap + slot / 2 + 7, 5 * wrap + 13})
        roundTrip(ring, bytes);
}

TEST(StagedTransfer, RingsOfOtherShapesAndChunksLargeEnoughForTheCopyThreads)
{
    // 3 MiB slots: each chunk goes through ParallelCopy's threads (above its 2 MiB threshold).
    roundTrip({3u << 20, 2, 3}, (3u << 20) * 5 + 12345);
    roundTrip({4096, 2, 0}, 4096 * 9 + 1);
    roundTrip({12288, 7, 0}, 12288 * 15 - 5);
}

TEST(StagedTransfer, TheRingIsTakenFromTheEnvironment)
{
    kw::test::ScopedEnvironment::assign("KWB_STAGING_SLOT_MIB", "32");
    kw::test::ScopedEnvironment::assign("KWB_STAGING_SLOTS", "6");
    kw::test::ScopedEnvironment::assign("KWB_STAGING_THREADS", "3");
    const auto r = StagedTransfer::ringFromEnvironment();
    EXPECT_EQ(r.slotBytes, std::size_t(32) << 20);
    EXPECT_EQ(r.slots, 6u);
    EXPECT_EQ(r.copyThreads, 2u); // workers beside the caller
    kw::test::ScopedEnvironment::assign("KWB_STAGING_SLOTS", "many");
    EXPECT_EQ(StagedTransfer::ringFromEnvironment().slots, StagedTransfer::Ring{}.slots);
    kw::test::ScopedEnvironment::assign("KWB_STAGING_SLOT_MIB", std::nullopt);
    kw::test::ScopedEnvironment::assign("KWB_STAGING_SLOTS", std::nullopt);
    kw::test::ScopedEnvironment::assign("KWB_STAGING_THREADS", std::nullopt);
    EXPECT_EQ(StagedTransfer::ringFromEnvironment().slotBytes, StagedTransfer::Ring{}.slotBytes);
}
