#pragma once
// One execution of a launch's grid. The whole-grid path is finish() alone: blocks are
// handed out to worker threads, each with its own BlockRunner and observers. A
// stepping client calls begin() and advance() first: the blocks run one after another
// on the calling thread, by a budget each time (BlockRunner::advance), and finish()
// runs what is left over the workers.
#include "sim/BlockRunner.hpp"
#include "sim/LaunchObservers.hpp"
#include "sim/ProfileCollector.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kw::sim {

struct LaunchState;

// What one execution of the grid gave.
struct GridRun {
    double ms = 0;
    std::string printf; // in block order
    std::uint64_t instructions = 0;
    std::vector<std::unique_ptr<ProfileCollector>> profiles; // per worker, when profiled
};

enum class LaunchStatus : std::uint8_t {
    Paused,    // the budget is used up (or an observer asked for a pause) inside a block
    Barrier,   // a barrier of the current block released (Budget::toBarrier)
    BlockDone, // the current block ran to its end; the next one begins on the next advance()
    Finished,  // every block has run
    Stopped,   // the launch stopped (a fault, the time limit)
};

class LaunchRun {
public:
    explicit LaunchRun(LaunchState& launch);
    ~LaunchRun();
    LaunchRun(const LaunchRun&) = delete;
    LaunchRun& operator=(const LaunchRun&) = delete;

    // Starts the clock. The launch's deadline is set by its owner.
    void begin();
    // The grid from block `block` on: the blocks before it have run elsewhere and left
    // the memory as it is (a debugger's checkpoint). Before the first advance().
    void startAt(std::uint64_t block) { next_ = block; }
    // The current block (the next one when none is under way) by the budget, on this thread.
    LaunchStatus advance(const Budget& budget = {});
    // The runner of the stepped blocks, made by the first advance() (null before): for
    // its warps, and to attach a debugger's observers before that.
    BlockRunner* stepper() { return stepper_.get(); }
    BlockRunner& makeStepper();
    // The block under way, or the next to begin.
    std::uint64_t block() const { return next_ - (inBlock_ ? 1 : 0); }

    // Runs the rest of the grid (a stepped block to its end first) over `threads` workers.
    GridRun finish(unsigned threads);

private:
    using Output = std::vector<BlockPrintf>;
    LaunchState& L_;
    std::uint64_t blocks_ = 0;
    std::uint64_t next_ = 0; // the next block to begin
    bool inBlock_ = false;
    std::chrono::steady_clock::time_point t0_;
    std::unique_ptr<LaunchObservers> stepperObservers_;
    std::unique_ptr<BlockRunner> stepper_;

    void runWorkers(unsigned threads, std::vector<Output>& outputs, std::vector<std::uint64_t>& counts,
                    std::vector<std::unique_ptr<ProfileCollector>>& profiles);
};

} // namespace kw::sim
