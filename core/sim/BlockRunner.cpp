#include "sim/BlockRunner.hpp"

#include "sim/DevicePrintf.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/LaneMasks.hpp"
#include "sim/SimChecks.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::sim {

namespace {
constexpr std::uint64_t kSlice = 1u << 16;         // instructions a warp runs before others get a turn
constexpr std::uint64_t kDivergedSlice = 1u << 10; // ... and a diverged group before the warp's other lanes

// Whether all 32 lanes wait at one pc (a loop the compiler vectorises).
bool samePc(const std::uint32_t (&lanePc)[32])
{
    std::uint32_t apart = 0;
    for (int l = 0; l < 32; ++l)
        apart |= lanePc[l] ^ lanePc[0];
    return apart == 0;
}
} // namespace

BlockRunner::BlockRunner(LaunchState& launch)
    : L_(launch)
    , fn_(*launch.fn)
    , lines_(fn_)
{
    const std::uint64_t threads = L_.block.volume();
    warpsPerBlock_ = std::uint32_t((threads + 31) / 32);
    regs_.assign(std::size_t(warpsPerBlock_) * fn_.numRegs * 32, 0);
    warps_.resize(warpsPerBlock_);
    shared_.assign(std::max<std::uint32_t>(L_.sharedSize, 1), 0);
    local_.assign(std::size_t(warpsPerBlock_) * 32 * fn_.localBytes + 1, 0);
    blk_.launch = &L_;
    blk_.shared = shared_.data();
    // Everything that does not change from block to block is written once.
    for (std::uint32_t wi = 0; wi < warpsPerBlock_; ++wi) {
        Warp& w = warps_[wi];
        w.R = regs_.data() + std::size_t(wi) * fn_.numRegs * 32;
        w.fn = &fn_;
        w.blk = &blk_;
        w.L = &L_;
        w.localBytes = fn_.localBytes;
        w.local = local_.data() + std::size_t(wi) * 32 * fn_.localBytes;
        w.warpId = wi;
        w.exists = 0;
        for (int l = 0; l < 32; ++l) {
            const std::uint64_t t = std::uint64_t(wi) * 32 + l;
            if (t < threads)
                w.exists |= 1u << l;
            const std::uint64_t tt = std::min<std::uint64_t>(t, threads - 1);
            w.R[RegTidX * 32 + l] = tt % L_.block.x;
            w.R[RegTidY * 32 + l] = (tt / L_.block.x) % L_.block.y;
            w.R[RegTidZ * 32 + l] = tt / (std::uint64_t(L_.block.x) * L_.block.y);
            w.R[RegNtidX * 32 + l] = L_.block.x;
            w.R[RegNtidY * 32 + l] = L_.block.y;
            w.R[RegNtidZ * 32 + l] = L_.block.z;
            w.R[RegNctaidX * 32 + l] = L_.grid.x;
            w.R[RegNctaidY * 32 + l] = L_.grid.y;
            w.R[RegNctaidZ * 32 + l] = L_.grid.z;
            w.R[RegLaneId * 32 + l] = std::uint64_t(l);
            w.R[RegWarpId * 32 + l] = wi;
            w.R[RegNwarpId * 32 + l] = 64;
            w.R[RegLanemaskEq * 32 + l] = 1u << l;
            w.R[RegLanemaskLt * 32 + l] = (1u << l) - 1;
            w.R[RegLanemaskLe * 32 + l] = l == 31 ? 0xffffffffu : (2u << l) - 1;
            w.R[RegLanemaskGt * 32 + l] = l == 31 ? 0u : ~((2u << l) - 1);
            w.R[RegLanemaskGe * 32 + l] = ~((1u << l) - 1);
            w.R[RegDynSmem * 32 + l] = L_.dynShared;
            w.R[RegTotalSmem * 32 + l] = L_.sharedSize;
            w.R[RegSmId * 32 + l] = 0;
            w.R[RegNsmId * 32 + l] = std::max<std::uint32_t>(1, L_.smCount);
            w.R[RegGridId * 32 + l] = 1;
            w.R[RegZero * 32 + l] = 0;
            // The window's two named offsets split it in halves (cooperative groups
            // needs 288 bytes at _1); 0 everywhere when the module has no window.
            const std::uint32_t reserved = L_.mod->reservedShared;
            w.R[RegReservedBegin * 32 + l] = L_.reservedShared;
            w.R[RegReservedEnd * 32 + l] = L_.reservedShared + reserved;
            w.R[RegReservedCap * 32 + l] = reserved;
            w.R[RegReserved0 * 32 + l] = L_.reservedShared;
            w.R[RegReserved1 * 32 + l] = L_.reservedShared + reserved / 2;
            w.R[RegOne * 32 + l] = 1;
        }
        for (const auto& [reg, bits] : fn_.constRegs)
            for (int l = 0; l < 32; ++l)
                w.R[std::size_t(reg) * 32 + l] = bits;
    }
}

std::uint64_t BlockRunner::instructions() const
{
    std::uint64_t n = 0;
    for (const auto& w : warps_)
        n += w.executed;
    return n;
}

void BlockRunner::observe(Observer& o)
{
    blk_.observers.add(o);
    attachedChanged();
}

void BlockRunner::forget(Observer& o)
{
    blk_.observers.remove(o);
    attachedChanged();
}

void BlockRunner::attachedChanged()
{
    watching_ = blk_.observers.issues() || blk_.observers.accesses();
    observedLines_ = watching_ && blk_.observers.lines();
    unobserved_ = blk_.observers.empty();
    for (auto& w : warps_) {
        w.probe = blk_.observers.accesses() ? &blk_.accesses : nullptr;
        w.cache = nullptr; // a cached region would let global accesses past the probe
    }
}

void BlockRunner::begin(std::uint64_t linear)
{
    linear_ = linear;
    const Dim3 ctaid{std::uint32_t(linear % L_.grid.x), std::uint32_t((linear / L_.grid.x) % L_.grid.y),
                     std::uint32_t(linear / (std::uint64_t(L_.grid.x) * L_.grid.y))};
    blk_.ctaid = ctaid;
    blk_.printf.clear();
    blk_.printf.block = linear;
    blk_.accesses.clear();
    if (L_.sharedSize)
        std::fill(shared_.begin(), shared_.end(), std::uint8_t(0));
    for (auto& w : warps_) {
        std::uint64_t* cx = w.reg(RegCtaidX);
        std::uint64_t* cy = w.reg(RegCtaidY);
        std::uint64_t* cz = w.reg(RegCtaidZ);
        std::uint64_t* sm = w.reg(RegSmId);
        // Blocks spread over the multiprocessors as a GPU's block scheduler would hand them out.
        const std::uint64_t smid = linear % std::max<std::uint32_t>(1, L_.smCount);
        for (int l = 0; l < 32; ++l) {
            cx[l] = ctaid.x;
            cy[l] = ctaid.y;
            cz[l] = ctaid.z;
            sm[l] = smid;
        }
        w.pc = 0;
        w.mask = w.exists;
        w.exited = ~w.exists;
        w.atBar = 0;
        w.mergePc = ~0u;
        w.stop = false;
        w.polled = false;
        w.inTurn = false;
        w.announced = false;
        w.async.clear(); // copies a block's threads never waited for do not outlive it
        std::fill(std::begin(w.lanePc), std::end(w.lanePc), 0u);
    }
    turn_ = 0;
    ran_ = false;
    pauseRequested_ = false;
    blk_.observers.blockBegin(blk_, linear);
}

BlockStatus BlockRunner::advance(const Budget& budget)
{
    budgetLeft_ = budget.instructions;
    for (;;) {
        for (; turn_ < warps_.size(); ++turn_) {
            Warp& w = warps_[turn_];
            if (!w.mask)
                continue;
            if (budgetLeft_ == 0)
                return BlockStatus::Paused;
            ran_ = true;
            const bool turnOver = turn(w);
            if (w.stop)
                return BlockStatus::Stopped;
            if (!turnOver)
                return BlockStatus::Paused;
        }
        turn_ = 0;
        if (std::exchange(ran_, false))
            continue;
        if (!releaseBarrier())
            break;
        if (L_.stop.load(std::memory_order_relaxed))
            return BlockStatus::Stopped;
        // A loop around __syncthreads() ends every warp's turn at the barrier, before
        // its time slice is used up: the limit is checked at each release as well.
        if (std::chrono::steady_clock::now() > L_.deadline) {
            warps_.front().fault(FaultKind::Timeout,
                                 fmt::format("the kernel ran longer than the time limit of {} s and was stopped "
                                             "(endless loop?)",
                                             L_.timeLimitSeconds),
                                 -1, fn_.code[std::min<std::size_t>(warps_.front().pc, fn_.code.size() - 1)]);
            return BlockStatus::Stopped;
        }
        if (budget.toBarrier)
            return BlockStatus::Barrier;
    }
    return endBlock();
}

BlockStatus BlockRunner::advanceWarp(std::uint32_t warp, std::uint64_t instructions)
{
    Warp& w = warps_.at(warp);
    budgetLeft_ = instructions;
    while (w.mask && budgetLeft_ > 0) {
        turn(w);
        if (w.stop)
            return BlockStatus::Stopped;
    }
    return w.mask ? BlockStatus::Paused : BlockStatus::WarpWaits;
}

bool BlockRunner::turn(Warp& w)
{
    const std::uint64_t before = w.executed;
    const bool over = runWarp(w);
    budgetLeft_ -= std::min(budgetLeft_, w.executed - before);
    if (watching_)
        deliverAccesses(w);
    return over;
}

BlockStatus BlockRunner::endBlock()
{
    if (L_.stop.load(std::memory_order_relaxed))
        return BlockStatus::Stopped;
    if (!blk_.printf.empty())
        printf_.push_back(std::move(blk_.printf));
    blk_.observers.blockEnd(blk_, linear_);
    return BlockStatus::Done;
}

// The observers learn of the instruction about to execute, after the accesses of the
// one before. True: one of them asked for a pause.
bool BlockRunner::announce(Warp& w, const Instr& in, std::uint32_t m)
{
    deliverAccesses(w);
    accessInstr_ = &in;
    blk_.observers.issue(w, in, m);
    if (!pauseRequested_)
        return false;
    pauseRequested_ = false;
    w.announced = true;
    return true;
}

void BlockRunner::deliverAccesses(const Warp& w)
{
    if (!blk_.accesses.lanes)
        return;
    blk_.observers.memory(w, *accessInstr_, blk_.accesses);
    blk_.accesses.clear();
}

// Lanes that diverged wait with their own pc; the lowest pc runs next, so lanes meet
// again where their paths join.
void BlockRunner::reschedule(Warp& w)
{
    if (w.mask == 0xffffffffu)
        std::fill_n(w.lanePc, 32, w.pc);
    else
        for (std::uint32_t m = w.mask; m; m &= m - 1)
            w.lanePc[__builtin_ctz(m)] = w.pc;
    const std::uint32_t runnable = ~w.exited & ~w.atBar & w.exists;
    if (runnable == 0xffffffffu && samePc(w.lanePc)) { // a barrier released, a branch all lanes took
        w.mask = runnable;
        w.pc = w.lanePc[0];
        w.mergePc = ~0u;
        w.ahead = false;
        return;
    }
    std::uint32_t minPc = ~0u;
    for (std::uint32_t m = runnable; m; m &= m - 1)
        minPc = std::min(minPc, w.lanePc[__builtin_ctz(m)]);
    std::uint32_t mask = 0, next = ~0u;
    for (std::uint32_t m = runnable; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (w.lanePc[l] == minPc)
            mask |= 1u << l;
        else
            next = std::min(next, w.lanePc[l]);
    }
    w.mask = mask;
    w.pc = mask ? minPc : 0;
    w.mergePc = next;
    w.ahead = false;
}

// The lowest-pc-first order alone starves lanes ahead of a spinning group (a lock taken
// by one lane while the others spin before it). After a time slice the next group in
// pc order runs, as independent thread scheduling allows since Volta; warp-synchronous
// instructions still wait for the lanes behind (see runWarp).
void BlockRunner::yieldToOtherLanes(Warp& w)
{
    for (std::uint32_t m = w.mask; m; m &= m - 1)
        w.lanePc[__builtin_ctz(m)] = w.pc;
    const std::uint32_t runnable = ~w.exited & ~w.atBar & w.exists;
    std::uint32_t next = ~0u, lowest = ~0u;
    for (std::uint32_t m = runnable; m; m &= m - 1) {
        const std::uint32_t p = w.lanePc[__builtin_ctz(m)];
        if (p > w.pc)
            next = std::min(next, p);
        lowest = std::min(lowest, p);
    }
    if (next == ~0u) { // the group was the last in pc order: start again from the lowest
        w.mask = 0;
        reschedule(w);
        return;
    }
    std::uint32_t mask = 0, merge = ~0u;
    for (std::uint32_t m = runnable; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (w.lanePc[l] == next)
            mask |= 1u << l;
        else if (w.lanePc[l] > next)
            merge = std::min(merge, w.lanePc[l]);
    }
    w.mask = mask;
    w.pc = next;
    w.mergePc = merge;
    w.ahead = lowest < next;
}

bool BlockRunner::runWarp(Warp& w)
{
    const Instr* code = fn_.code.data();
    const std::uint32_t codeSize = std::uint32_t(fn_.code.size());
    if (!w.inTurn) {
        const std::uint32_t live = ~w.exited & ~w.atBar & w.exists;
        w.sliceEnd = w.executed + ((live & ~w.mask) ? kDivergedSlice : kSlice);
        w.inTurn = true;
    }
    // The turn's end or the budget's, whichever comes first: one test per instruction for both.
    std::uint64_t stopAt = w.executed + std::min(budgetLeft_, w.sliceEnd - w.executed);
    const bool watching = watching_;
    while (w.mask) {
        if (w.pc >= codeSize) { // fell off the end: as ret
            w.exited |= w.mask;
            w.mask = 0;
            reschedule(w);
            continue;
        }
        // A straight line of plain instructions (PlainLines): the scheduler has nothing to
        // do between them. All but the last run without the loop's tests, short of the pc
        // where waiting lanes rejoin and of the turn's or the budget's end; the last goes
        // through the loop, which makes every test after it, unless a fused step ran it
        // (then those tests follow here). Observed, only while every issue observer takes
        // the line as one event and none filters or has paused here.
        if (!watching || (observedLines_ && !w.announced && !issueAt_)) {
            const std::uint64_t n = std::min<std::uint64_t>(
                {lines_.length(w.pc), w.mergePc > w.pc ? w.mergePc - w.pc : 0, stopAt - w.executed});
            if (n > 1) {
                const std::uint32_t end = w.pc + std::uint32_t(n);
                if (!(watching ? runObservedLine(w, n - 1) : runLine(w, n))) {
                    w.inTurn = false;
                    return true;
                }
                if (w.pc == end) {
                    if (w.pc >= w.mergePc)
                        reschedule(w);
                    if (w.executed >= stopAt)
                        return turnEnds(w, code[end - 1]);
                    continue;
                }
            }
        }
        const Instr& in = code[w.pc];
        if (in.warpSync && w.ahead) { // let the lanes behind catch up first
            reschedule(w);
            continue;
        }
        std::uint32_t m = w.mask;
        if (in.guard >= 0)
            m &= nonZeroLanes(w.reg(std::uint32_t(in.guard))) ^ (in.guardNeg ? ~0u : 0u);
        // Observers: the one test in the loop when there are none.
        if (watching) [[unlikely]] {
            if (w.announced)
                w.announced = false;
            else {
                // The instruction before's accesses first: what they tell may widen the filter.
                if (blk_.accesses.lanes)
                    deliverAccesses(w);
                if (!issueAt_ || issueAt_[w.pc]) {
                    if (announce(w, in, m))
                        return false;
                } else
                    accessInstr_ = &in; // not announced: only its accesses will be
            }
        }
        switch (in.ctrl) {
        case Ctrl::None:
            w.polled |= in.polls;
            if (m && in.fn)
                in.fn(w, in, m);
            ++w.pc;
            break;
        case Ctrl::Bra:
            // A loop that polls memory or sleeps waits for another warp or lane: end the time slice
            // so the writer runs now rather than after tens of thousands of spins.
            if (w.polled && m && in.target <= w.pc) {
                w.polled = false;
                w.sliceEnd = w.executed + 1;
                stopAt = std::min(stopAt, w.sliceEnd);
            }
            if (m == w.mask)
                w.pc = in.target;
            else if (m == 0)
                ++w.pc;
            else {
                for (std::uint32_t k = w.mask; k; k &= k - 1) {
                    const int l = __builtin_ctz(k);
                    w.lanePc[l] = (m >> l) & 1 ? in.target : w.pc + 1;
                }
                w.mask = 0;
                reschedule(w);
            }
            break;
        case Ctrl::Exit:
            w.exited |= m;
            w.mask &= ~m;
            ++w.pc;
            if (!w.mask)
                reschedule(w);
            break;
        case Ctrl::Bar:
            if (in.barRed != BarRedOp::None) { // remember each arriving lane's predicate
                const std::uint64_t* p = w.reg(in.a[0]);
                const bool neg = in.negMask & 1;
                for (std::uint32_t k = m; k; k &= k - 1) {
                    const int l = __builtin_ctz(k);
                    w.barPred = (w.barPred & ~(1u << l)) | (std::uint32_t((p[l] != 0) != neg) << l);
                }
            }
            if (m == 0xffffffffu)
                std::fill_n(w.lanePc, 32, w.pc + 1);
            else
                for (std::uint32_t k = m; k; k &= k - 1)
                    w.lanePc[__builtin_ctz(k)] = w.pc + 1;
            if (m && !blk_.observers.empty())
                blk_.observers.barrierArrive(w, in, m);
            w.atBar |= m;
            w.mask &= ~m;
            ++w.pc;
            if (!w.mask)
                reschedule(w);
            break;
        case Ctrl::Printf:
            if (m)
                printf(w, in, m);
            ++w.pc;
            break;
        case Ctrl::Assert:
            if (m)
                assertFail(w, in, m);
            ++w.pc;
            break;
        case Ctrl::Trap:
            if (m)
                w.fault(FaultKind::Trap, "trap (__trap()) executed", __builtin_ctz(m), in);
            ++w.pc;
            break;
        case Ctrl::Unsupported:
            if (m)
                w.fault(FaultKind::Unsupported,
                        "not supported by the simulator: " + fn_.unsupported[std::size_t(&in - code)], __builtin_ctz(m),
                        in);
            ++w.pc;
            break;
        }
        if (w.stop) {
            w.inTurn = false;
            return true;
        }
        if (w.pc >= w.mergePc)
            reschedule(w);
        if (++w.executed >= stopAt)
            return turnEnds(w, in);
    }
    w.inTurn = false;
    return true;
}

// runWarp after instruction `in` has used up the turn or the budget. False: the budget, with
// the turn to go on when resumed.
bool BlockRunner::turnEnds(Warp& w, const Instr& in)
{
    if (w.executed < w.sliceEnd)
        return false;
    w.inTurn = false;
    checkTime(w, in);
    if (!w.stop && w.mask && ((~w.exited & ~w.atBar & w.exists) & ~w.mask))
        yieldToOtherLanes(w);
    return true;
}

// The n plain instructions from w.pc, none of which can end the turn or reach a rejoin point
// (runWarp's choice), but the last, which runWarp's loop runs, unless a fused step ends the
// line: each is what runWarp's loop does for it, without the tests that cannot come out
// otherwise. False: one of them stopped the launch, with w.pc past it and not counted, as
// runWarp's loop leaves a stopped warp.
bool BlockRunner::runLine(Warp& w, std::uint64_t n)
{
    const Instr* code = fn_.code.data();
    for (std::uint64_t left = n; left > 1;) {
        const Instr& in = code[w.pc];
        const PlainLines::Fused& f = lines_.fused(w.pc);
        if (f.run) {
            // The registers only the fused instructions read are left unwritten when they
            // run whole and nothing observes the block (a debugger attached may show them).
            const std::uint32_t length = f.length <= left ? f.length : std::uint32_t(left / f.unit * f.unit);
            const std::uint64_t written = unobserved_ && length == f.length ? f.live : ~std::uint64_t(0);
            if (const std::uint32_t ran = length ? f.run(w, &in, length, written) : 0) {
                w.pc += ran;
                w.executed += ran;
                left -= ran;
                continue;
            }
        }
        in.fn(w, in, w.mask);
        ++w.pc;
        if (w.stop) [[unlikely]]
            return false;
        ++w.executed;
        --left;
    }
    return true;
}

// runLine for an observed warp: one instruction at a time (no fused steps, which would
// hide their loads), each one's accesses delivered once it has run, and the issue
// observers told of the line once, with what ran of it.
bool BlockRunner::runObservedLine(Warp& w, std::uint64_t n)
{
    if (blk_.accesses.lanes) // the loop's instruction before
        deliverAccesses(w);
    const Instr* code = fn_.code.data();
    const std::uint32_t from = w.pc, mask = w.mask;
    bool ok = true;
    for (std::uint64_t left = n; left > 0; --left) {
        const Instr& in = code[w.pc];
        accessInstr_ = &in;
        in.fn(w, in, w.mask);
        ++w.pc;
        ok = !w.stop;
        w.executed += ok; // as the loop leaves it when the accesses are delivered
        if (blk_.accesses.lanes)
            deliverAccesses(w);
        if (!ok) [[unlikely]]
            break;
    }
    blk_.observers.issueLine(w, from, w.pc - from, mask);
    return ok;
}

void BlockRunner::checkTime(Warp& w, const Instr& in)
{
    if (L_.stop.load(std::memory_order_relaxed)) {
        w.stop = true;
        return;
    }
    if (std::chrono::steady_clock::now() > L_.deadline)
        w.fault(FaultKind::Timeout,
                fmt::format("the kernel ran longer than the time limit of {} s and was stopped (endless loop?)",
                            L_.timeLimitSeconds),
                -1, in);
}

// All warps wait: release the barrier when every waiting thread is at the same one.
bool BlockRunner::releaseBarrier()
{
    // synccheck: a barrier not all threads reach is a finding (BlockChecks::barrierRelease), and
    // releases those waiting.
    const bool lenient = L_.check == CheckTool::Synccheck;
    std::uint32_t barPc = ~0u;
    const Warp* first = nullptr;
    int firstLane = 0;
    for (auto& w : warps_) {
        // A whole warp at one barrier, the same as the warps before it: nothing to report.
        if (w.atBar == 0xffffffffu && samePc(w.lanePc) && (barPc == ~0u || w.lanePc[0] - 1 == barPc)) {
            if (barPc == ~0u) {
                barPc = w.lanePc[0] - 1;
                first = &w;
                firstLane = 0;
            }
            continue;
        }
        for (std::uint32_t m = w.atBar; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            const std::uint32_t pc = w.lanePc[l] - 1;
            if (barPc == ~0u) {
                barPc = pc;
                first = &w;
                firstLane = l;
                continue;
            }
            if (pc != barPc && !lenient) {
                const Instr& a = fn_.code[barPc];
                const Instr& b = fn_.code[pc];
                w.mask = 1u << l;
                w.fault(FaultKind::DivergentBarrier,
                        fmt::format("divergent barrier (a __syncthreads() not reached by all threads of the "
                                    "block): thread ({},{},{}) waits at the barrier on line {}, this thread at the "
                                    "barrier on line {}",
                                    first->threadOf(firstLane).x, first->threadOf(firstLane).y,
                                    first->threadOf(firstLane).z, a.line, b.line),
                        l, b);
                return false;
            }
        }
    }
    if (barPc == ~0u)
        return false; // every thread has exited
    // Threads that exited never arrive: the waiting ones would wait forever on a GPU.
    for (auto& w : warps_) {
        const std::uint32_t gone = w.exited & w.exists;
        if (!gone || lenient)
            continue;
        const int l = __builtin_ctz(gone);
        const Instr& a = fn_.code[barPc];
        w.mask = 1u << l;
        w.fault(FaultKind::DivergentBarrier,
                fmt::format("divergent barrier (a __syncthreads() not reached by all threads of the block): thread "
                            "({},{},{}) waits at the barrier on line {}, this thread has exited",
                            first->threadOf(firstLane).x, first->threadOf(firstLane).y, first->threadOf(firstLane).z,
                            a.line),
                l, a);
        return false;
    }
    // bar.sync id, count: a plain barrier when the count names the whole block (BarrierChecks.cpp).
    if (!lenient && fn_.code[barPc].barCount && !barrierCountsMatch(warps_, fn_))
        return false;
    const Instr& bar = fn_.code[barPc];
    blk_.observers.barrierRelease(warps_, bar);
    if (bar.barRed != BarRedOp::None) { // reduce the predicates of all waiting threads
        std::uint64_t count = 0, waiting = 0;
        for (auto& w : warps_) {
            count += std::uint64_t(__builtin_popcount(w.atBar & w.barPred));
            waiting += std::uint64_t(__builtin_popcount(w.atBar));
        }
        const std::uint64_t value = bar.barRed == BarRedOp::Popc ? count
            : bar.barRed == BarRedOp::And                        ? (count == waiting)
                                                                 : (count != 0);
        for (auto& w : warps_) {
            std::uint64_t* d = w.reg(bar.d[0]);
            for (std::uint32_t m = w.atBar; m; m &= m - 1)
                d[__builtin_ctz(m)] = value;
        }
    }
    for (auto& w : warps_) {
        if (!w.atBar)
            continue;
        w.atBar = 0;
        w.mask = 0;
        reschedule(w);
    }
    return true;
}

namespace {
// Call parameters of printf/assert live in the lane's local frame (Instr::a holds offsets).
template <class T> T callParam(const Warp& w, int lane, std::uint32_t offset)
{
    T v{};
    if (offset + sizeof(T) <= w.localBytes)
        std::memcpy(&v, w.local + std::size_t(lane) * w.localBytes + offset, sizeof(T));
    return v;
}
} // namespace

void BlockRunner::printf(Warp& w, const Instr& in, std::uint32_t m)
{
    forLanes(m, [&](int l) {
        if (w.stop)
            return;
        DeviceReader read = [&](std::uint64_t addr, std::uint32_t size, void* out) {
            const std::uint8_t* p = w.access(Space::Generic, addr, 1, false, l, in);
            if (!p)
                return false;
            if (watching_)
                deliverAccesses(w);
            if (size > 1) {
                p = w.access(Space::Generic, addr, size, false, l, in);
                if (watching_)
                    deliverAccesses(w);
                if (!p)
                    return false;
            }
            std::memcpy(out, p, size);
            return true;
        };
        int count = 0;
        auto text = formatDevicePrintf(callParam<std::uint64_t>(w, l, in.a[0]), callParam<std::uint64_t>(w, l, in.a[1]),
                                       read, count);
        if (!text)
            return;
        // The GPU's printf FIFO holds printfBufferBytes; what does not fit is dropped.
        const std::uint64_t before = L_.printfBytes.fetch_add(text->size(), std::memory_order_relaxed);
        if (before + text->size() > L_.printfBufferBytes) {
            L_.printfTruncated.store(true, std::memory_order_relaxed);
            return;
        }
        blk_.printf.add(w.warpId * 32 + std::uint32_t(l), *text);
        if (in.d[0] != ~0u && in.d[0] + 4 <= w.localBytes)
            std::memcpy(w.local + std::size_t(l) * w.localBytes + in.d[0], &count, 4);
    });
}

void BlockRunner::assertFail(Warp& w, const Instr& in, std::uint32_t m)
{
    const int l = __builtin_ctz(m);
    DeviceReader read = [&](std::uint64_t addr, std::uint32_t size, void* out) {
        const std::uint8_t* p = w.access(Space::Generic, addr, size, false, l, in);
        if (watching_)
            deliverAccesses(w);
        if (!p)
            return false;
        std::memcpy(out, p, size);
        return true;
    };
    const auto message = readDeviceString(callParam<std::uint64_t>(w, l, in.a[0]), read).value_or("?");
    const auto file = readDeviceString(callParam<std::uint64_t>(w, l, in.a[1]), read).value_or("?");
    const auto line = callParam<std::uint32_t>(w, l, in.a[2]);
    const auto function = readDeviceString(callParam<std::uint64_t>(w, l, in.a[3]), read).value_or("?");
    if (w.stop)
        return;
    w.fault(FaultKind::Assert, fmt::format("{}:{}: {}: Assertion `{}` failed", file, line, function, message), l, in);
}

} // namespace kw::sim
