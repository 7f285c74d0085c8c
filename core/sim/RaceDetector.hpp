#pragma once
// Optional shared-memory race report: two threads of a block touching the same word
// between two barriers, at least one of them writing, neither access ordered before the
// other by a __syncwarp or by release/acquire (HappensBefore). Atomics, and the
// loads and stores of cuda::atomic_ref, do not race. A volatile flag that a fenced
// volatile write sets is synchronisation too: its volatile readers do not race with it.
// Lanes of one warp writing one word in one store are one store, as on the device.
// An observer: it sees the memory accesses, the barriers, __syncwarp, the warp
// collectives and fences.
#include "sim/HappensBefore.hpp"
#include "sim/Observer.hpp"

#include <cstdint>
#include <vector>

namespace kw::sim {

struct LaunchState;
class BlockChecks;

// The order of the two accesses of a hazard, as compute-sanitizer's racecheck names them.
enum class Hazard : std::uint8_t { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };

class RaceDetector : public Observer {
public:
    explicit RaceDetector(LaunchState& launch);
    // Hazards go to `sink` (racecheck findings) instead of the launch's warnings.
    void reportTo(BlockChecks* sink) { sink_ = sink; }

    std::uint8_t wants() const override { return Accesses; }
    void blockBegin(const BlockState& blk, std::uint64_t linear) override;
    void memory(const Warp& w, const Instr& in, const AccessLog& lanes) override;
    void barrierRelease(const std::vector<Warp>& /*warps*/, const Instr& /*bar*/) override { ++epoch_; }
    // bar.warp.sync: the member lanes met; what each did before is ordered before what
    // any of them does after.
    void warpSync(const Warp& w, const Instr& in, std::uint32_t lanes) override;
    void warpCollective(const Warp& w, const Instr& in, std::uint32_t lanes) override;
    void fence(const Warp& w, const Instr& in, std::uint32_t lanes) override;

private:
    // What a word's last writer and one reader did; strong: volatile, sync: a volatile write
    // after a fence (a flag's release).
    struct Word {
        std::uint32_t epoch = 0;
        std::uint16_t writer = 0, reader = 0;           // thread + 1, 0 none (one reader remembered)
        std::uint32_t writerClock = 0, readerClock = 0; // the thread's own clock at the access
        std::uint32_t writerStore = 0;                  // the store (storeCount_) that wrote it
        bool writerStrong = false, writerSync = false, readerStrong = false;
        const Instr* writerIn = nullptr;
        const Instr* readerIn = nullptr;
    };
    // One lane's access of shared memory.
    struct Access {
        std::uint32_t addr, size, thread; // thread: linear index in the block
        bool write;
        bool strong; // volatile
        bool sync;   // a volatile write after a fence: a release
    };
    LaunchState& L_;
    std::vector<Word> words_;
    HappensBefore order_;
    std::uint32_t epoch_ = 1;
    std::uint32_t storeCount_ = 0; // the warp-level stores so far
    BlockChecks* sink_ = nullptr;

    static std::uint32_t threadOf(const Warp& w, int lane);
    // The release and acquire semantics of a strong access, lane by lane.
    void synchronise(const Warp& w, MemOrder order, bool readModifyWrite, const AccessLog& lanes);
    void access(const Access& a, const Instr& in);
    // Two volatile accesses of a flag, one of them its release: synchronisation, not data.
    static bool flag(const Access& a, bool otherStrong, bool otherSync)
    {
        return a.strong && otherStrong && (a.sync || otherSync);
    }
    void report(Hazard hazard, std::uint32_t word, std::uint32_t other, const Instr& otherIn, const Access& a,
                const Instr& in);
};

} // namespace kw::sim
