#pragma once
// Optional shared-memory race report: two threads of a block touching the same word
// between two barriers, at least one of them writing. Threads of one warp are also
// ordered by a __syncwarp both took part in (a vector clock per lane of the warp).
// An observer: it sees the non-atomic shared accesses, the barriers and __syncwarp.
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

private:
    struct Word {
        std::uint32_t epoch = 0;
        std::uint32_t writer = 0, reader = 0;           // thread + 1, 0 none (one reader remembered)
        std::uint32_t writerClock = 0, readerClock = 0; // the thread's own clock at the access
        const Instr* writerIn = nullptr;
        const Instr* readerIn = nullptr;
    };
    LaunchState& L_;
    std::vector<Word> words_;
    std::vector<std::uint32_t> clocks_; // [warp][lane][lane]: what lane knows of each lane's clock
    std::uint32_t epoch_ = 1;
    BlockChecks* sink_ = nullptr;

    // thread: linear thread index in the block; in: the accessing instruction.
    void access(std::uint32_t addr, std::uint32_t size, bool write, std::uint32_t thread, const Instr& in);
    std::uint32_t* clock(std::uint32_t thread) { return clocks_.data() + std::size_t(thread) * 32; }
    // Whether other's access (at its clock `then`) is ordered before thread's by a __syncwarp.
    bool ordered(std::uint32_t other, std::uint32_t then, std::uint32_t thread)
    {
        return other / 32 == thread / 32 && clock(thread)[other % 32] > then;
    }
};

} // namespace kw::sim
