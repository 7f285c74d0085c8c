// mbarrier.init, arrive, arrive_drop, test_wait, try_wait, pending_count and inval
// (Mbarrier.hpp). Arrivals are release read-modify-writes of the barrier's word and a
// wait that sees its phase complete an acquire, so racecheck orders what each thread did
// before arriving before what the waiters do after; a wait that has not completed orders
// nothing and reads the word without telling the observers. A test in a loop polls: the
// warp yields to the others at its backward branch.
#include "sim/Mbarrier.hpp"

#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"
#include "sim/Warp.hpp"

#include <cstring>
#include <fmt/format.h>

namespace kw::sim {

namespace {

std::uint64_t load(const std::uint8_t* p)
{
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

void store(std::uint8_t* p, std::uint64_t v) { std::memcpy(p, &v, 8); }

std::uint64_t addressOf(const Warp& w, const Instr& in, int lane) { return w.reg(in.addr)[lane] + w.reg(in.a[2])[0]; }

} // namespace

std::optional<std::uint64_t> mbarrierArrive(Warp& w, const Instr& in, int lane, std::uint64_t addr, MbarrierArrival a)
{
    std::uint8_t* p = w.access(in.space, addr, 8, true, lane, in);
    if (!p)
        return std::nullopt;
    MbarrierState s = MbarrierState::of(load(p));
    if (s.expected == 0) {
        w.fault(FaultKind::Other,
                fmt::format("mbarrier arrival on {:#x}, which holds no initialised barrier (mbarrier.init, "
                            "cuda::barrier's init)",
                            addr),
                lane, in);
        return std::nullopt;
    }
    if (a.count == 0 || a.count > s.pending || (a.drop && a.count > s.expected)) {
        w.fault(FaultKind::Other,
                fmt::format("mbarrier arrival of {} on {:#x}, whose phase expects {} more of its {}: more threads "
                            "arrive than the barrier was initialised for",
                            a.count, addr, s.pending, s.expected),
                lane, in);
        return std::nullopt;
    }
    if (a.drop)
        s.expected -= a.count;
    s.pending -= a.count;
    if (s.pending == 0 && s.transaction == 0 && a.noComplete) {
        w.fault(FaultKind::Other,
                fmt::format("mbarrier.arrive.noComplete on {:#x} completes the phase, which .noComplete promises "
                            "it does not",
                            addr),
                lane, in);
        return std::nullopt;
    }
    const std::uint64_t token = mbarrierToken(s.parity, s.pending);
    s.completeIfDone();
    store(p, s.bits());
    return token;
}

bool mbarrierTransaction(Warp& w, const Instr& in, int lane, std::uint64_t addr, std::int64_t bytes)
{
    std::uint8_t* p = w.access(in.space, addr, 8, true, lane, in);
    if (!p)
        return false;
    MbarrierState s = MbarrierState::of(load(p));
    const std::int64_t tx = s.transaction + bytes;
    if (s.expected == 0 || tx > MbarrierState::kMaxTransaction || tx < -MbarrierState::kMaxTransaction) {
        w.fault(FaultKind::Other,
                s.expected == 0
                    ? fmt::format("mbarrier transaction on {:#x}, which holds no initialised barrier", addr)
                    : fmt::format("mbarrier transaction count on {:#x} out of range: {} bytes expected, then {}", addr,
                                  s.transaction, bytes),
                lane, in);
        return false;
    }
    s.transaction = std::int32_t(tx);
    s.completeIfDone();
    store(p, s.bits());
    return true;
}

void hMbarrierInit(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* C = w.reg(in.a[0]);
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        const std::uint64_t addr = addressOf(w, in, l);
        std::uint8_t* p = w.access(in.space, addr, 8, true, l, in);
        if (!p)
            return;
        const std::uint64_t count = std::uint32_t(C[l]);
        if (count == 0 || count > MbarrierState::kMaxCount) {
            w.fault(FaultKind::Other,
                    fmt::format("mbarrier.init on {:#x} with a count of {}; it takes 1 to {}", addr, count,
                                MbarrierState::kMaxCount),
                    l, in);
            return;
        }
        store(p, MbarrierState{std::uint32_t(count), std::uint32_t(count), false}.bits());
    }
}

void hMbarrierInval(Warp& w, const Instr& in, std::uint32_t m)
{
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        std::uint8_t* p = w.access(in.space, addressOf(w, in, l), 8, true, l, in);
        if (!p)
            return;
        store(p, 0);
    }
}

void hMbarrierArrive(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* C = w.reg(in.a[0]);
    std::uint64_t* D = w.reg(in.d[0]);
    const bool drop = in.imm & 1, noComplete = in.imm & 2, expectTx = in.imm & 4;
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        const std::uint64_t addr = addressOf(w, in, l);
        if (expectTx && !mbarrierTransaction(w, in, l, addr, std::int64_t(std::uint32_t(C[l]))))
            return;
        const std::uint32_t count = expectTx ? 1 : std::uint32_t(C[l]);
        const auto token = mbarrierArrive(w, in, l, addr, {count, drop, noComplete});
        if (!token)
            return;
        D[l] = *token;
    }
}

void hMbarrierTransaction(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* C = w.reg(in.a[0]);
    const bool expect = in.imm & 1;
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        const auto bytes = std::int64_t(std::uint32_t(C[l]));
        if (!mbarrierTransaction(w, in, l, addressOf(w, in, l), expect ? bytes : -bytes))
            return;
    }
}

void hMbarrierTestWait(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* T = w.reg(in.a[0]);
    std::uint64_t* D = w.reg(in.d[0]);
    const bool parityForm = in.imm & 1;
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        const std::uint64_t addr = addressOf(w, in, l);
        const std::uint8_t* p = w.accessUnobserved(in.space, addr, 8, false, l, in);
        if (!p)
            return;
        const MbarrierState s = MbarrierState::of(load(p));
        if (s.expected == 0) {
            w.fault(FaultKind::Other, fmt::format("mbarrier wait on {:#x}, which holds no initialised barrier", addr),
                    l, in);
            return;
        }
        // The phase the state (or the parity operand) names has completed once the parity moved on.
        const bool waitedFor = parityForm ? (T[l] & 1) : (T[l] >> 63);
        const bool complete = s.parity != waitedFor;
        if (complete && !w.access(in.space, addr, 8, false, l, in)) // the acquire, for the observers
            return;
        D[l] = complete;
    }
}

void hMbarrierPendingCount(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* T = w.reg(in.a[0]);
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = T[l] & MbarrierState::kMaxCount; });
}

} // namespace kw::sim
