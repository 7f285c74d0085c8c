#pragma once
// PTX's arrive/wait barrier object (mbarrier, what cuda::barrier and cuda::pipeline use on
// sm_80 and later): 8 bytes of shared memory that count the arrivals still expected in
// the current phase and the bytes of bulk copies still to come (the transaction count:
// expect_tx adds, a copy's complete_tx takes away). When both reach zero the phase
// completes: its parity flips and the count starts again at the expected count. The
// bytes hold the simulator's own encoding (PTX leaves it opaque): pending arrivals in
// bits 0-19, the expected count in bits 20-39, the transaction count in bits 40-60 (two's
// complement: a copy may complete before its bytes are expected), the phase's parity in
// bit 63; zero is a barrier not initialised.
#include <cstdint>
#include <optional>

namespace kw::sim {

class Warp;
struct Instr;

struct MbarrierState {
    static constexpr std::uint32_t kMaxCount = (1u << 20) - 1;

    static constexpr std::int32_t kMaxTransaction = (1 << 20) - 1;

    std::uint32_t pending = 0, expected = 0;
    std::int32_t transaction = 0; // bytes still expected
    bool parity = false;

    static MbarrierState of(std::uint64_t bits)
    {
        const auto tx = std::int32_t((bits >> 40) & 0x1fffff);
        return {std::uint32_t(bits & kMaxCount), std::uint32_t((bits >> 20) & kMaxCount),
                tx & 0x100000 ? tx - 0x200000 : tx, bool(bits >> 63)};
    }
    std::uint64_t bits() const
    {
        return std::uint64_t(pending) | std::uint64_t(expected) << 20
            | (std::uint64_t(std::uint32_t(transaction)) & 0x1fffff) << 40 | std::uint64_t(parity) << 63;
    }
    // The phase completes once its arrivals and its bytes are all in.
    void completeIfDone()
    {
        if (pending == 0 && transaction == 0) {
            parity = !parity;
            pending = expected;
        }
    }
};

// The state an arrival returns: the phase's parity in bit 63 (what test_wait compares),
// the arrivals still pending after it in the low bits (mbarrier.pending_count).
inline std::uint64_t mbarrierToken(bool parity, std::uint32_t pending) { return std::uint64_t(parity) << 63 | pending; }

struct MbarrierArrival {
    std::uint32_t count = 1;
    bool drop = false;       // arrive_drop: the expected count of later phases drops by count too
    bool noComplete = false; // the program promises this arrival does not complete the phase
};

// Lane `lane`'s arrival on the barrier at shared address `addr`, as instruction `in`
// (its access goes to the observers): the token, or nullopt after a fault that names
// what was wrong (not initialised, more arrivals than the phase expects, a noComplete
// arrival that completes it).
std::optional<std::uint64_t> mbarrierArrive(Warp& w, const Instr& in, int lane, std::uint64_t addr, MbarrierArrival a);

// Lane `lane`'s expect-tx (bytes > 0) or complete-tx (bytes < 0) on the barrier at `addr`;
// false after a fault (not initialised, a count out of range).
bool mbarrierTransaction(Warp& w, const Instr& in, int lane, std::uint64_t addr, std::int64_t bytes);

} // namespace kw::sim
