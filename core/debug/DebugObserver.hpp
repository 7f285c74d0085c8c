#pragma once
// The debugger inside the simulator: an observer of the stepped block runner that asks
// for a pause before an instruction when a breakpoint's line is reached and its
// condition holds for a lane, when a watched element is written or read, when the
// motion under way (step, next, finish, reconverge...) arrives, or at a barrier's
// release or a block's begin. It only decides and records; DebugSession runs the launch.
//
// In recording mode nothing pauses: each stop it would have made is noted with its
// position (reverse execution finds the last one before where it stands).
#include "debug/DebugTypes.hpp"
#include "debug/LaneExpression.hpp"
#include "sim/BlockRunner.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace kw::debug {

struct ArmedBreakpoint {
    BreakpointInfo info;
    std::vector<std::uint32_t> pcs; // where the line begins (its first instructions, jump targets)
    std::vector<std::unique_ptr<LaneExpression>> conditions; // per pc of `pcs` (a source name's place
                                                             // differs between them); empty: none
    std::vector<std::uint32_t> arrived;                      // BreakMode::AllLanes: per warp, the lanes that arrived
    std::vector<std::uint64_t> hitAt;                        // the position of each hit counted (info.hits of them)
};

struct ArmedWatch {
    WatchInfo info;
    sim::Space space = sim::Space::Global; // Global or Shared
    std::uint64_t address = 0;             // device address, or the offset in shared memory
    std::uint32_t size = 4;
    DType type = DType::F32;
    const std::uint8_t* host = nullptr; // a global element's bytes (shared: read through the runner)
    double last = 0;                    // the value when last seen
    std::vector<std::uint64_t> hitAt;   // the position of each hit counted (info.hits of them)
};

// A PTX function's name as its C++ declaration reads (_Z9block_sumPKfPfi: block_sum(float const*, float*, int)).
std::string readableName(const std::string& name);

class DebugObserver final : public sim::Observer {
public:
    // A motion's test at each instruction about to issue: a reason stops there.
    using Motion = std::function<std::optional<StopReason>(const sim::Warp&, const sim::Instr&, std::uint32_t)>;

    explicit DebugObserver(const sim::Function& fn);

    // `base`: the position of the runner's first instruction (a run from a checkpoint).
    void attach(sim::BlockRunner& runner, std::uint64_t base = 0);
    void detach();
    // After the watches changed (whether memory events are wanted).
    void reattach();

    std::uint8_t wants() const override;
    void blockBegin(const sim::BlockState& blk, std::uint64_t linear) override;
    void blockEnd(const sim::BlockState& blk, std::uint64_t linear) override;
    void issue(const sim::Warp& w, const sim::Instr& in, std::uint32_t active) override;
    void memory(const sim::Warp& w, const sim::Instr& in, const sim::AccessLog& lanes) override;
    void barrierRelease(const std::vector<sim::Warp>& warps, const sim::Instr& bar) override;
    void fault(const sim::Warp& w, const sim::FaultEvent& f) override;

    std::vector<ArmedBreakpoint>& breakpoints() { return breakpoints_; }
    std::vector<ArmedWatch>& watches() { return watches_; }
    // The watches' remembered values from memory as it is now.
    void refreshWatches();
    double watchValue(const ArmedWatch& w) const;

    // What ends the next resumption, besides breakpoints and watches.
    void pauseAtNextIssue(StopReason why, std::string message = {});
    // A check found something at `warp`'s `lane`: stop before the next instruction, there.
    void finding(std::uint32_t warp, int lane, std::string message);
    void setMotion(Motion motion)
    {
        motion_ = std::move(motion);
        updateFilter();
    }
    void pauseAtBarrierOf(std::optional<std::uint64_t> block) { barrierBlock_ = block; }
    void pauseAtBlock(std::optional<std::uint64_t> block) { beginBlock_ = block; }
    // The block whose end ends the motion (the focused one), if any.
    void stopWhenBlockEnds(std::optional<std::uint64_t> block) { endBlock_ = block; }
    // No breakpoints or watches fire (a motion to a known place).
    void quiet(bool on) { quiet_ = on; }
    // Every instruction is announced, armed or not (a check's findings stop before the next one).
    void alwaysIssues(bool on) { alwaysIssues_ = on; }
    void clearMotions();
    // A motion's armed state (its test, the barrier, block begin or block end it waits
    // for), taken out when a pause interrupts it and put back to go on with it.
    struct Armed {
        Motion motion;
        std::optional<std::uint64_t> barrierBlock, beginBlock, endBlock;
    };
    Armed takeMotions();
    void restoreMotions(Armed armed);

    void record(bool on)
    {
        recording_ = on;
        recorded_.clear();
    }
    const std::vector<Stop>& recorded() const { return recorded_; }

    // The stop asked for since the last take, if any.
    std::optional<Stop> takeStop() { return std::exchange(pending_, std::nullopt); }
    bool stopPending() const { return pending_.has_value(); }
    // A watch hit after the last instruction of the launch: reported when it finishes.
    std::optional<WatchHit> takeLateWatch() { return std::exchange(nextWatch_, std::nullopt); }
    // The lane and warp of the last fault, and where.
    std::optional<Stop> lastFault() const { return fault_; }
    // Where each block began (position), as far as the run has come.
    const std::vector<std::uint64_t>& blockBegins() const { return blockBegins_; }
    void forgetHistory();
    // The state at `position` is reached again: the hits counted after it are undone
    // (those at it were counted before the stop there, as in the forward run).
    void forgetHitsAfter(std::uint64_t position);
    // Every breakpoint's and watch's hits (their positions), in order: taken before a
    // paused reverse motion forgets some, given back where it lands.
    using Hits = std::vector<std::vector<std::uint64_t>>;
    Hits hits() const;
    // For the same breakpoints and watches as hits() was taken of; otherwise nothing.
    void restoreHits(const Hits& hits);

    std::uint64_t position() const { return base_ + (runner_ ? runner_->instructions() : 0); }
    // Told of each block's begin (linear, position): where the session takes checkpoints.
    void onBlockBegin(std::function<void(std::uint64_t, std::uint64_t)> f) { onBlockBegin_ = std::move(f); }
    Location locate(std::uint32_t pc) const;

private:
    const sim::Function& fn_;
    sim::BlockRunner* runner_ = nullptr;
    bool attached_ = false; // detach(): runner_ is kept for position() but may be destroyed
    std::uint64_t base_ = 0;
    std::function<void(std::uint64_t, std::uint64_t)> onBlockBegin_;
    std::vector<std::uint8_t> breakAt_; // per pc: a breakpoint begins there
    std::vector<ArmedBreakpoint> breakpoints_;
    std::vector<ArmedWatch> watches_;
    Motion motion_;
    std::optional<std::uint64_t> barrierBlock_, beginBlock_, endBlock_;
    bool quiet_ = false;
    bool alwaysIssues_ = false;
    bool recording_ = false;
    std::vector<Stop> recorded_;
    std::optional<Stop> pending_;
    std::optional<StopReason> pauseNext_;
    std::string pauseMessage_;
    std::optional<WatchHit> nextWatch_; // a watch hit waiting for the next instruction to stop before
    std::optional<Stop> fault_;
    std::uint32_t findingWarp_ = 0;
    int findingLane_ = -1;
    std::vector<std::uint64_t> blockBegins_;

    // The runner announces only the breakpoints' pcs while nothing else needs to see
    // each instruction (a motion, a pause asked for, a watch's hit, a check).
    void updateFilter();
    void stopHere(const sim::Warp& w, StopReason why, int lane, int breakpoint = 0, std::string message = {});
    // The lane of w that stops it at breakpoint b, or -1.
    int breakpointLane(ArmedBreakpoint& b, const sim::Warp& w, const sim::Instr& in, std::uint32_t active);

public:
    // The pcs where a breakpoint stops: each armed breakpoint's.
    void rebuildBreakAt();
};

} // namespace kw::debug
