// synccheck: __syncthreads() reached by part of a block, bar.sync with a thread count
// that does not name the block, __syncwarp() with a mask naming exited lanes; and the
// counted bar.sync and bar.warp.sync themselves, which run with or without a check.
#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"
#include "sim/LaunchState.hpp"
#include "sim/SimChecks.hpp"
#include "sim/Warp.hpp"

#include <fmt/format.h>

namespace kw::sim {

void BlockChecks::barrierRelease(const std::vector<Warp>& warps, const Instr& bar)
{
    if (tool_ != CheckTool::Synccheck)
        return;
    divergence(warps, *L_.fn);
    if (bar.barCount)
        barrierCount(warps, *L_.fn);
}

void BlockChecks::divergence(const std::vector<Warp>& warps, const Function& fn)
{
    // The first thread waiting, the first at another barrier, the first that exited.
    const Warp *first = nullptr, *other = nullptr, *gone = nullptr;
    int firstLane = 0, otherLane = 0, goneLane = 0;
    std::uint32_t barPc = ~0u, otherPc = ~0u;
    std::uint64_t atOther = 0, exited = 0;
    for (const Warp& w : warps) {
        for (std::uint32_t m = w.atBar; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            const std::uint32_t pc = w.lanePc[l] - 1;
            if (!first) {
                first = &w, firstLane = l, barPc = pc;
            } else if (pc != barPc) {
                if (!other)
                    other = &w, otherLane = l, otherPc = pc;
                ++atOther;
            }
        }
        const std::uint32_t left = w.exited & w.exists;
        if (left && !gone)
            gone = &w, goneLane = __builtin_ctz(left);
        exited += std::uint64_t(__builtin_popcount(left));
    }
    if (!first)
        return; // every thread exited: nothing waits
    const Instr& bar = fn.code[barPc];
    const Dim3 waiting = first->threadOf(firstLane);
    if (other) {
        const Instr& b = fn.code[otherPc];
        const Dim3 t = other->threadOf(otherLane);
        add(FindingKey{b.file, b.line, FindingKind::DivergentBarrier, bar.file, bar.line}, [&] {
            CheckFinding f = finding(
                FindingKind::DivergentBarrier, b,
                located(L_, ctaid_, t, b,
                        fmt::format("divergent barrier (a __syncthreads() not reached by all threads of the block): "
                                    "thread {} waits at the barrier at {}, this thread and {} more at the barrier "
                                    "at {}",
                                    dimText(waiting), lineText(L_, bar), atOther - 1, lineText(L_, b))));
            f.thread = t;
            return f;
        });
    }
    if (gone) {
        const Dim3 t = gone->threadOf(goneLane);
        add(FindingKey{bar.file, bar.line, FindingKind::BarrierExited}, [&] {
            CheckFinding f = finding(
                FindingKind::BarrierExited, bar,
                located(L_, ctaid_, t, bar,
                        fmt::format("divergent barrier (a __syncthreads() not reached by all threads of the block): "
                                    "thread {} waits at the barrier at {}, this thread and {} more have exited",
                                    dimText(waiting), lineText(L_, bar), exited - 1)));
            f.thread = t;
            return f;
        });
    }
}

namespace {
// The first waiting lane whose bar.sync names a thread count other than the block's
// `whole` threads, with that count; null for none.
const Warp* wrongCount(const std::vector<Warp>& warps, const Function& fn, int& lane, std::uint32_t& count)
{
    const std::uint32_t whole = std::uint32_t(warps.size()) * 32;
    for (const Warp& w : warps)
        for (std::uint32_t m = w.atBar; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            const Instr& bar = fn.code[w.lanePc[l] - 1];
            if (!bar.barCount)
                continue;
            count = std::uint32_t(w.reg(bar.a[1])[l]);
            if (count == whole)
                continue;
            lane = l;
            return &w;
        }
    return nullptr;
}
} // namespace

void BlockChecks::barrierCount(const std::vector<Warp>& warps, const Function& fn)
{
    int lane = 0;
    std::uint32_t count = 0;
    const Warp* w = wrongCount(warps, fn, lane, count);
    if (!w)
        return;
    const std::uint32_t whole = std::uint32_t(warps.size()) * 32;
    const Instr& bar = fn.code[w->lanePc[lane] - 1];
    const Dim3 t = w->threadOf(lane);
    add(FindingKey{bar.file, bar.line, FindingKind::BarrierCount}, [&] {
        CheckFinding f = finding(
            FindingKind::BarrierCount, bar,
            located(L_, ctaid_, t, bar,
                    fmt::format("barrier with a thread count of {} in a block of {} threads ({} as whole warps): the "
                                "count must be a multiple of 32 and name every thread that arrives",
                                count, L_.block.volume(), whole)));
        f.thread = t;
        return f;
    });
}

bool barrierCountsMatch(std::vector<Warp>& warps, const Function& fn)
{
    int l = 0;
    std::uint32_t count = 0;
    const Warp* found = wrongCount(warps, fn, l, count);
    if (!found)
        return true;
    Warp& w = warps[std::size_t(found - warps.data())];
    const std::uint32_t whole = std::uint32_t(warps.size()) * 32;
    const Instr& bar = fn.code[w.lanePc[l] - 1];
    w.mask = 1u << l;
    if (count && count % 32 == 0 && count < whole)
        w.fault(FaultKind::Unsupported,
                fmt::format("not supported by the simulator: a barrier with a thread count of {} in a block "
                            "of {} threads (named barriers for part of a block)",
                            count, w.L->block.volume()),
                l, bar);
    else
        w.fault(FaultKind::Other,
                fmt::format("invalid barrier thread count {} in a block of {} threads (the count must be a "
                            "multiple of 32, at most {})",
                            count, w.L->block.volume(), whole),
                l, bar);
    return false;
}

void BlockChecks::warpSync(const Warp& w, const Instr& in, std::uint32_t m)
{
    if (tool_ != CheckTool::Synccheck)
        return;
    const std::uint64_t* M = w.reg(in.a[0]);
    const int lead = __builtin_ctz(m);
    const std::uint32_t mask = std::uint32_t(M[lead]);
    std::uint32_t disagree = 0, outside = 0;
    forLanes(m, [&](int l) {
        if (std::uint32_t(M[l]) != mask)
            disagree |= 1u << l;
        if (!((M[l] >> l) & 1))
            outside |= 1u << l;
    });
    // Lanes past the block's end never existed and are not named. Lanes that branched to an exit
    // may not have run it yet (the lowest pc runs first): they count as exited too.
    std::uint32_t exited = mask & w.exited & w.exists;
    const auto& code = L_.fn->code;
    for (std::uint32_t k = mask & ~m & w.exists & ~w.exited & ~w.atBar; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        if (w.lanePc[l] >= code.size() || code[w.lanePc[l]].ctrl == Ctrl::Exit)
            exited |= 1u << l;
    }
    if (!exited && !outside && !disagree)
        return;
    const int lane = outside ? __builtin_ctz(outside) : disagree ? __builtin_ctz(disagree) : lead;
    const Dim3 t = w.threadOf(lane);
    add(FindingKey{in.file, in.line, FindingKind::WarpSyncMask}, [&] {
        std::string why;
        if (exited)
            why = fmt::format("it names lanes that have exited (0x{:08x})", exited);
        else if (outside)
            why = fmt::format("it leaves out lanes that execute it (0x{:08x})", outside);
        else
            why = fmt::format("the lanes executing it give different masks (0x{:08x} differ)", disagree);
        CheckFinding f
            = finding(FindingKind::WarpSyncMask, in,
                      located(L_, ctaid_, t, in,
                              fmt::format("__syncwarp() with mask 0x{:08x} in warp {}: {}", mask, w.warpId, why)));
        f.thread = t;
        return f;
    });
}

// The checks and the race detector see it as an event; it does nothing else.
void hBarWarpSync(Warp& w, const Instr& in, std::uint32_t m) { w.blk->observers.warpSync(w, in, m); }

} // namespace kw::sim
