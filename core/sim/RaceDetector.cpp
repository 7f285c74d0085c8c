#include "sim/RaceDetector.hpp"

#include "sim/LaunchState.hpp"
#include "sim/SimChecks.hpp"
#include "sim/Warp.hpp"

#include <fmt/format.h>

namespace kw::sim {

RaceDetector::RaceDetector(LaunchState& launch)
    : L_(launch)
{
}

void RaceDetector::blockBegin(const BlockState& /*blk*/, std::uint64_t /*linear*/)
{
    words_.assign((L_.sharedSize + 3) / 4, Word{});
    order_.reset(std::uint32_t(L_.block.volume()));
    epoch_ = 1;
}

std::uint32_t RaceDetector::threadOf(const Warp& w, int lane)
{
    // Warps are cut from the block's threads in linear order (BlockRunner), as HappensBefore assumes.
    return w.warpId * 32 + std::uint32_t(lane);
}

void RaceDetector::memory(const Warp& w, const Instr& in, const AccessLog& lanes)
{
    const MemOrder order = lanes.barrierRelease ? MemOrder::Release : in.order;
    const bool atomic = lanes.barrierRelease || in.atomic;
    if (isStrong(order))
        synchronise(w, order, atomic, lanes);
    // Atomics, and cuda::atomic_ref's .relaxed/.acquire/.release loads and stores, do not race.
    if (atomic || (isStrong(order) && order != MemOrder::Volatile))
        return;
    const bool strong = order == MemOrder::Volatile;
    if (lanes.write)
        ++storeCount_;
    for (std::uint32_t m = lanes.inSpace[int(Space::Shared)]; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const std::uint32_t thread = threadOf(w, l);
        access({std::uint32_t(lanes.addr[l]), lanes.size[l], thread, lanes.write, strong,
                strong && lanes.write && order_.fenced(thread)},
               in);
    }
}

void RaceDetector::synchronise(const Warp& w, MemOrder order, bool readModifyWrite, const AccessLog& lanes)
{
    const bool reads = !lanes.write || readModifyWrite;
    for (std::uint32_t m = lanes.inSpace[int(Space::Shared)] | lanes.inSpace[int(Space::Global)]; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const std::uint32_t thread = threadOf(w, l);
        // The word, tagged with its state space.
        const bool shared = (lanes.inSpace[int(Space::Shared)] >> l) & 1;
        const std::uint64_t location = (lanes.addr[l] >> 2) | (std::uint64_t(shared) << 63);
        if (reads) {
            if (acquires(order))
                order_.acquire(thread, location);
            else
                order_.strongRead(thread, location);
        }
        if (lanes.write) {
            if (releases(order))
                order_.release(thread, location, readModifyWrite);
            else
                order_.strongWrite(thread, location, readModifyWrite);
        }
    }
}

void RaceDetector::warpSync(const Warp& w, const Instr& in, std::uint32_t executing)
{
    const std::uint32_t lanes = executing & std::uint32_t(w.reg(in.a[0])[__builtin_ctz(executing)]);
    if (lanes)
        order_.syncWarp(w.warpId, lanes);
}

void RaceDetector::warpCollective(const Warp& w, const Instr& /*in*/, std::uint32_t lanes)
{
    order_.meet(w.warpId, lanes);
}

void RaceDetector::fence(const Warp& w, const Instr& /*in*/, std::uint32_t lanes)
{
    for (std::uint32_t m = lanes; m; m &= m - 1)
        order_.fence(threadOf(w, __builtin_ctz(m)));
}

namespace {
std::string threadName(std::uint32_t t, const Dim3& b)
{
    return fmt::format("({},{},{})", t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
}
} // namespace

void RaceDetector::report(Hazard hazard, std::uint32_t word, std::uint32_t other, const Instr& otherIn, const Access& a,
                          const Instr& in)
{
    if (sink_) {
        sink_->race(hazard, word * 4, other - 1, otherIn, a.thread, in);
        return;
    }
    const char* otherKind = hazard == Hazard::ReadAfterWrite || hazard == Hazard::WriteAfterWrite ? "writes" : "reads";
    // One report per pair of source lines: the first pair of threads found names it.
    if (!L_.firstTime(fmt::format("race {} {} {} {}", otherIn.line, otherKind, in.line, a.write)))
        return;
    L_.warn(fmt::format("shared-memory race at shared offset {}: thread {} {} at line {} and thread {} {} at line {} "
                        "without a barrier between them",
                        word * 4, threadName(other - 1, L_.block), otherKind, otherIn.line,
                        threadName(a.thread, L_.block), a.write ? "writes" : "reads", in.line));
}

void RaceDetector::access(const Access& a, const Instr& in)
{
    const std::uint16_t me = std::uint16_t(a.thread + 1);
    const std::uint32_t now = order_.now(a.thread);
    for (std::uint32_t w = a.addr / 4; w <= (a.addr + a.size - 1) / 4 && w < words_.size(); ++w) {
        Word& e = words_[w];
        if (e.epoch != epoch_)
            e = Word{.epoch = epoch_};
        const bool sameStore = a.write && e.writerStore == storeCount_;
        if (e.writer && e.writer != me && !sameStore && !flag(a, e.writerStrong, e.writerSync)
            && !order_.ordered(e.writer - 1, e.writerClock, a.thread))
            report(a.write ? Hazard::WriteAfterWrite : Hazard::ReadAfterWrite, w, e.writer, *e.writerIn, a, in);
        else if (a.write && e.reader && e.reader != me && !flag(a, e.readerStrong, false)
                 && !order_.ordered(e.reader - 1, e.readerClock, a.thread))
            report(Hazard::WriteAfterRead, w, e.reader, *e.readerIn, a, in);
        if (a.write) {
            e.writer = me;
            e.writerClock = now;
            e.writerStore = storeCount_;
            e.writerStrong = a.strong;
            e.writerSync = a.sync;
            e.writerIn = &in;
        } else if (!e.reader || e.reader == me || order_.ordered(e.reader - 1, e.readerClock, a.thread)) {
            e.reader = me;
            e.readerClock = now;
            e.readerStrong = a.strong;
            e.readerIn = &in;
        }
    }
}

} // namespace kw::sim
