#pragma once
// Executes thread blocks of one launch on one host thread. The warps of a block run
// in turn, each until it blocks at a barrier, exits or uses up its time slice; when
// every warp waits, the barrier releases (or is reported as divergent).
//
// A block is begun, advanced by a budget as often as wanted and runs to its end; a
// pause keeps the schedule, so a block advanced in slices runs exactly as it runs
// whole. run() is begin() and one unlimited advance(). What happens is reported to the
// attached observers (Observer.hpp); an observer may ask for a pause before the
// instruction it is told about.
#include "sim/LaunchState.hpp"
#include "sim/Observer.hpp"
#include "sim/PlainLines.hpp"
#include "sim/Warp.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kw::sim {

// How far advance() runs.
struct Budget {
    std::uint64_t instructions = ~std::uint64_t(0); // warp-level instructions, over all warps
    bool toBarrier = false;                         // stop once a barrier has released
};

enum class BlockStatus : std::uint8_t {
    Paused,    // the budget is used up or an observer asked for a pause: advance() goes on
    Barrier,   // a barrier released (Budget::toBarrier)
    WarpWaits, // advanceWarp(): the warp waits at a barrier or has exited
    Done,      // the block ran to its end
    Stopped,   // the launch stopped (a fault, the time limit, a stop request)
};

class BlockRunner {
public:
    explicit BlockRunner(LaunchState& launch);
    BlockRunner(const BlockRunner&) = delete;
    BlockRunner& operator=(const BlockRunner&) = delete;

    // Observers are not owned; attach them before a block begins.
    void observe(Observer& o);
    void forget(Observer& o);
    // From an observer's issue(): stop before that instruction executes (it is not
    // announced again when the block goes on).
    void requestPause() { pauseRequested_ = true; }
    // Only the instructions at pcs whose byte of `atPc` is set are announced to the
    // issue() observers (a debugger's breakpoint lines): the others cost one test.
    // nullptr (the default): every instruction. May change from within an event; the
    // array must outlive its use (the caller owns the runner's issue observers).
    void setIssueFilter(const std::uint8_t* atPc) { issueAt_ = atPc; }

    // Block number `linear` (x fastest) from its start.
    void begin(std::uint64_t linear);
    BlockStatus advance(const Budget& budget = {});
    // Only warp `warp` runs, at most `instructions` of its instructions.
    BlockStatus advanceWarp(std::uint32_t warp, std::uint64_t instructions);
    // Runs block `linear` whole. Returns false when the launch stopped.
    bool run(std::uint64_t linear)
    {
        begin(linear);
        return advance() == BlockStatus::Done;
    }

    const std::vector<Warp>& warps() const { return warps_; }
    const BlockState& block() const { return blk_; }
    std::uint64_t linear() const { return linear_; }
    // The device printf output of the blocks run to their end, in the order they ended;
    // the block under way keeps its own in block().printf until then.
    std::vector<BlockPrintf>& printfOutput() { return printf_; }
    const std::vector<BlockPrintf>& printfOutput() const { return printf_; }
    std::uint64_t instructions() const;

private:
    LaunchState& L_;
    const Function& fn_;
    const PlainLines lines_;
    std::uint32_t warpsPerBlock_ = 0;
    std::vector<std::uint64_t> regs_;
    std::vector<Warp> warps_;
    std::vector<std::uint8_t> shared_, local_;
    BlockState blk_;
    std::vector<BlockPrintf> printf_;
    std::uint64_t linear_ = 0;
    // The schedule between advance() calls: the warp whose turn it is in this round,
    // whether any warp ran in it, and the instructions the budget has left.
    std::size_t turn_ = 0;
    bool ran_ = false;
    std::uint64_t budgetLeft_ = 0;
    bool watching_ = false;      // observers want issue or memory events: the hot loop's one test
    bool observedLines_ = false; // watching_, and every issue observer takes a line at once
    bool unobserved_ = true;     // no observer at all: registers no instruction reads again may go unwritten
    bool pauseRequested_ = false;
    const std::uint8_t* issueAt_ = nullptr; // setIssueFilter()
    const Instr* accessInstr_ = nullptr;    // the instruction whose accesses blk_.accesses holds

    void attachedChanged();
    // One turn of w, or what is left of it. False: paused before its end.
    bool runWarp(Warp& w);
    bool runLine(Warp& w, std::uint64_t n);
    bool turnEnds(Warp& w, const Instr& in);
    bool runObservedLine(Warp& w, std::uint64_t n);
    // runWarp within the budget, then the warp's accesses to the observers.
    bool turn(Warp& w);
    BlockStatus endBlock();
    [[gnu::noinline]] bool announce(Warp& w, const Instr& in, std::uint32_t m);
    void deliverAccesses(const Warp& w);
    void reschedule(Warp& w);
    void yieldToOtherLanes(Warp& w);
    bool releaseBarrier();
    void checkTime(Warp& w, const Instr& in);
    void printf(Warp& w, const Instr& in, std::uint32_t mask);
    void assertFail(Warp& w, const Instr& in, std::uint32_t mask);
};

} // namespace kw::sim
