#pragma once
// Executes thread blocks of one launch on one host thread. The warps of a block run
// in turn, each until it blocks at a barrier, exits or uses up its time slice; when
// every warp waits, the barrier releases (or is reported as divergent).
#include "sim/LaunchState.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/RaceDetector.hpp"
#include "sim/SimChecks.hpp"
#include "sim/Warp.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kw::sim {

class BlockRunner {
public:
    explicit BlockRunner(LaunchState& launch);
    // Runs block number `linear` (x fastest). Returns false when the launch stopped.
    bool run(std::uint64_t linear);

    std::vector<std::pair<std::uint64_t, std::string>>& printfOutput() { return printf_; }
    std::uint64_t instructions() const;
    // This runner's counters when the launch is profiled (null otherwise).
    std::unique_ptr<ProfileCollector> takeProfile()
    {
        if (prof_)
            prof_->flush();
        return std::move(prof_);
    }

private:
    LaunchState& L_;
    const Function& fn_;
    std::uint32_t warpsPerBlock_ = 0;
    std::vector<std::uint64_t> regs_;
    std::vector<Warp> warps_;
    std::vector<std::uint8_t> shared_, local_;
    BlockState blk_;
    RaceDetector race_;
    std::vector<std::pair<std::uint64_t, std::string>> printf_;
    std::unique_ptr<BlockChecks> checks_; // while the launch runs a check (SimChecks.hpp)
    std::unique_ptr<ProfileCollector> prof_;

    void runWarp(Warp& w);
    void reschedule(Warp& w);
    void yieldToOtherLanes(Warp& w);
    bool releaseBarrier();
    void checkTime(Warp& w, const Instr& in);
    void printf(Warp& w, const Instr& in, std::uint32_t mask);
    void assertFail(Warp& w, const Instr& in, std::uint32_t mask);
};

} // namespace kw::sim
