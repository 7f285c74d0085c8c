#include "sim/RaceDetector.hpp"

#include "sim/LaunchState.hpp"
#include "sim/SimChecks.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::sim {

RaceDetector::RaceDetector(LaunchState& launch)
    : L_(launch)
{
}

void RaceDetector::blockBegin(const BlockState& /*blk*/, std::uint64_t /*linear*/)
{
    words_.assign((L_.sharedSize + 3) / 4, Word{});
    std::fill(clocks_.begin(), clocks_.end(), 0u);
    epoch_ = 1;
}

void RaceDetector::memory(const Warp& w, const Instr& in, const AccessLog& lanes)
{
    if (in.atomic) // atomics do not race with each other
        return;
    for (std::uint32_t m = lanes.inSpace[int(Space::Shared)]; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const Dim3 t = w.threadOf(l);
        const std::uint32_t linear = t.x + L_.block.x * (t.y + L_.block.y * t.z);
        access(std::uint32_t(lanes.addr[l]), lanes.size[l], lanes.write, linear, in);
    }
}

namespace {
std::string threadName(std::uint32_t t, const Dim3& b)
{
    return fmt::format("({},{},{})", t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
}

// Clocks for warps 0..warp, grown as warps show up (a block's warps are known only by their accesses).
void fit(std::vector<std::uint32_t>& clocks, std::uint32_t warp)
{
    const std::size_t need = (std::size_t(warp) + 1) * 32 * 32;
    if (clocks.size() < need)
        clocks.resize(need, 0u);
}
} // namespace

void RaceDetector::warpSync(const Warp& w, const Instr& in, std::uint32_t executing)
{
    const std::uint32_t warp = w.warpId;
    const std::uint32_t lanes = executing & std::uint32_t(w.reg(in.a[0])[__builtin_ctz(executing)]);
    if (!lanes)
        return;
    fit(clocks_, warp);
    std::uint32_t* base = clock(warp * 32);
    std::uint32_t joined[32] = {};
    for (std::uint32_t m = lanes; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        ++base[l * 32 + l]; // what a lane does from here on is later than what it did
        for (int k = 0; k < 32; ++k)
            joined[k] = std::max(joined[k], base[l * 32 + k]);
    }
    for (std::uint32_t m = lanes; m; m &= m - 1)
        std::copy(joined, joined + 32, base + __builtin_ctz(m) * 32);
}

void RaceDetector::access(std::uint32_t addr, std::uint32_t size, bool write, std::uint32_t thread, const Instr& in)
{
    LaunchState& launch = L_;
    const Dim3& blockDim = L_.block;
    const std::uint32_t me = thread + 1;
    fit(clocks_, thread / 32);
    const std::uint32_t now = clock(thread)[thread % 32];
    for (std::uint32_t w = addr / 4; w <= (addr + size - 1) / 4 && w < words_.size(); ++w) {
        Word& e = words_[w];
        if (e.epoch != epoch_)
            e = Word{epoch_, 0, 0, 0, 0, nullptr, nullptr};
        auto report = [&](std::uint32_t other, const Instr& otherIn, Hazard hazard) {
            if (sink_) {
                sink_->race(hazard, w * 4, other - 1, otherIn, thread, in);
                return;
            }
            const char* otherKind
                = hazard == Hazard::ReadAfterWrite || hazard == Hazard::WriteAfterWrite ? "writes" : "reads";
            // One report per pair of source lines: the first pair of threads found names it.
            if (!launch.firstTime(fmt::format("race {} {} {} {}", otherIn.line, otherKind, in.line, write)))
                return;
            launch.warn(fmt::format(
                "shared-memory race at shared offset {}: thread {} {} at line {} and thread {} {} at line {} "
                "without a barrier between them",
                w * 4, threadName(other - 1, blockDim), otherKind, otherIn.line, threadName(thread, blockDim),
                write ? "writes" : "reads", in.line));
        };
        if (e.writer && e.writer != me && !ordered(e.writer - 1, e.writerClock, thread))
            report(e.writer, *e.writerIn, write ? Hazard::WriteAfterWrite : Hazard::ReadAfterWrite);
        else if (write && e.reader && e.reader != me && !ordered(e.reader - 1, e.readerClock, thread))
            report(e.reader, *e.readerIn, Hazard::WriteAfterRead);
        if (write) {
            e.writer = me;
            e.writerClock = now;
            e.writerIn = &in;
        } else if (!e.reader || e.reader == me || ordered(e.reader - 1, e.readerClock, thread)) {
            e.reader = me;
            e.readerClock = now;
            e.readerIn = &in;
        }
    }
}

} // namespace kw::sim
