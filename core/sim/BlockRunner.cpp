#include "sim/BlockRunner.hpp"

#include "sim/DevicePrintf.hpp"
#include "sim/ExecHelpers.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::sim {

namespace {
constexpr std::uint64_t kSlice = 1u << 16;         // instructions a warp runs before others get a turn
constexpr std::uint64_t kDivergedSlice = 1u << 10; // ... and a diverged group before the warp's other lanes
} // namespace

BlockRunner::BlockRunner(LaunchState& launch)
    : L_(launch)
    , fn_(*launch.fn)
{
    const std::uint64_t threads = L_.block.volume();
    warpsPerBlock_ = std::uint32_t((threads + 31) / 32);
    regs_.assign(std::size_t(warpsPerBlock_) * fn_.numRegs * 32, 0);
    warps_.resize(warpsPerBlock_);
    shared_.assign(std::max<std::uint32_t>(L_.sharedSize, 1), 0);
    local_.assign(std::size_t(warpsPerBlock_) * 32 * fn_.localBytes + 1, 0);
    blk_.launch = &L_;
    blk_.shared = shared_.data();
    if (L_.raceCheck) {
        race_.reset(L_.sharedSize);
        blk_.race = &race_;
        blk_.watchShared = true;
    }
    if (L_.check != CheckTool::None)
        checks_ = std::make_unique<BlockChecks>(L_, blk_, race_, warpsPerBlock_, fn_.localBytes);
    if (L_.profile)
        prof_ = std::make_unique<ProfileCollector>(fn_, L_.capture);
    blk_.watchShared = blk_.watchShared || blk_.race || prof_; // the checks may have asked already
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
        w.probe = prof_ ? &prof_->log : nullptr;
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

bool BlockRunner::run(std::uint64_t linear)
{
    const Dim3 ctaid{std::uint32_t(linear % L_.grid.x), std::uint32_t((linear / L_.grid.x) % L_.grid.y),
                     std::uint32_t(linear / (std::uint64_t(L_.grid.x) * L_.grid.y))};
    blk_.ctaid = ctaid;
    blk_.printf.clear();
    if (L_.sharedSize)
        std::fill(shared_.begin(), shared_.end(), std::uint8_t(0));
    if (blk_.race)
        race_.reset(L_.sharedSize);
    if (checks_)
        checks_->beginBlock(linear);
    if (prof_)
        prof_->beginBlock(ctaid);
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
        std::fill(std::begin(w.lanePc), std::end(w.lanePc), 0u);
    }
    for (;;) {
        bool ran = false;
        for (auto& w : warps_) {
            if (!w.mask)
                continue;
            ran = true;
            runWarp(w);
            if (w.stop)
                return false;
        }
        if (ran)
            continue;
        if (!releaseBarrier())
            break;
        if (L_.stop.load(std::memory_order_relaxed))
            return false;
        // A loop around __syncthreads() ends every warp's turn at the barrier, before
        // its time slice is used up: the limit is checked at each release as well.
        if (std::chrono::steady_clock::now() > L_.deadline) {
            warps_.front().fault(FaultKind::Timeout,
                                 fmt::format("the kernel ran longer than the time limit of {} s and was stopped "
                                             "(endless loop?)",
                                             L_.timeLimitSeconds),
                                 -1, fn_.code[std::min<std::size_t>(warps_.front().pc, fn_.code.size() - 1)]);
            return false;
        }
    }
    if (L_.stop.load(std::memory_order_relaxed))
        return false;
    if (!blk_.printf.empty())
        printf_.emplace_back(linear, std::move(blk_.printf));
    return true;
}

// Lanes that diverged wait with their own pc; the lowest pc runs next, so lanes meet
// again where their paths join.
void BlockRunner::reschedule(Warp& w)
{
    for (std::uint32_t m = w.mask; m; m &= m - 1)
        w.lanePc[__builtin_ctz(m)] = w.pc;
    const std::uint32_t runnable = ~w.exited & ~w.atBar & w.exists;
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

void BlockRunner::runWarp(Warp& w)
{
    const Instr* code = fn_.code.data();
    const std::uint32_t codeSize = std::uint32_t(fn_.code.size());
    ProfileCollector* const prof = prof_.get();
    const std::uint32_t live = ~w.exited & ~w.atBar & w.exists;
    std::uint64_t sliceEnd = w.executed + ((live & ~w.mask) ? kDivergedSlice : kSlice);
    while (w.mask) {
        if (w.pc >= codeSize) { // fell off the end: as ret
            w.exited |= w.mask;
            w.mask = 0;
            reschedule(w);
            continue;
        }
        const Instr& in = code[w.pc];
        if (in.warpSync && w.ahead) { // let the lanes behind catch up first
            reschedule(w);
            continue;
        }
        std::uint32_t m = w.mask;
        if (in.guard >= 0) {
            const std::uint64_t* p = w.reg(std::uint32_t(in.guard));
            std::uint32_t pm = 0;
            forLanes(m, [&](int l) { pm |= std::uint32_t((p[l] != 0) != in.guardNeg) << l; });
            m = pm;
        }
        // Profiling: the one test in the loop when it is off.
        if (prof) [[unlikely]]
            prof->issue(w, in, m);
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
                sliceEnd = w.executed + 1;
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
            for (std::uint32_t k = m; k; k &= k - 1)
                w.lanePc[__builtin_ctz(k)] = w.pc + 1;
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
        if (w.stop)
            return;
        if (w.pc >= w.mergePc)
            reschedule(w);
        if (++w.executed >= sliceEnd) {
            checkTime(w, in);
            if (!w.stop && w.mask && ((~w.exited & ~w.atBar & w.exists) & ~w.mask))
                yieldToOtherLanes(w);
            return;
        }
    }
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
    // synccheck: a barrier not all threads reach is a finding, and releases those waiting (BarrierChecks.cpp).
    const bool lenient = checks_ && checks_->barrier(warps_, fn_);
    std::uint32_t barPc = ~0u;
    const Warp* first = nullptr;
    int firstLane = 0;
    for (auto& w : warps_) {
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
    if (fn_.code[barPc].barCount && !barrierCountsMatch(warps_, fn_, checks_.get()))
        return false;
    if (blk_.race)
        race_.nextEpoch();
    const Instr& bar = fn_.code[barPc];
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
            if (size > 1) {
                p = w.access(Space::Generic, addr, size, false, l, in);
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
        blk_.printf += *text;
        if (in.d[0] != ~0u && in.d[0] + 4 <= w.localBytes)
            std::memcpy(w.local + std::size_t(l) * w.localBytes + in.d[0], &count, 4);
    });
}

void BlockRunner::assertFail(Warp& w, const Instr& in, std::uint32_t m)
{
    const int l = __builtin_ctz(m);
    DeviceReader read = [&](std::uint64_t addr, std::uint32_t size, void* out) {
        const std::uint8_t* p = w.access(Space::Generic, addr, size, false, l, in);
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
