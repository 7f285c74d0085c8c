#pragma once
// What happens in the interpreter, as a profiler, a check, the race detector or a
// debugger sees it. An observer is attached to one BlockRunner (one worker thread) and
// receives the events of the blocks that runner executes, in execution order, with no
// locks. The frequent events (issue, memory) reach only the observers whose wants()
// asks for them; the rare ones reach every observer. A runner with no observer tests
// one flag per instruction and calls nothing (ObserverList, BlockRunner::runWarp).
#include "launch/LaunchTypes.hpp"
#include "sim/AccessLog.hpp"
#include "sim/Instr.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct BlockState;
struct Warp;

// A fault as the warp raises it: `what` before the place is added to the message; an
// out-of-bounds or misaligned access also names its address.
struct FaultEvent {
    FaultKind kind = FaultKind::Other;
    const std::string& what;
    int lane = 0;
    const Instr& in;
    bool access = false; // a memory access faulted: write and address say which
    bool write = false;
    std::uint64_t address = 0;
};

// What a memory event's lanes did, from the instruction and the log.
enum class AccessKind : std::uint8_t { Load, Store, Atomic };

class Observer {
public:
    enum Wants : std::uint8_t {
        Issues = 1,   // issue(): every warp-level instruction
        Accesses = 2, // memory(): every memory instruction's lanes
        // An Issues observer that also takes issueLine() for a straight line's instructions.
        // The runner batches a line only while every Issues observer takes it.
        Lines = 4,
    };

    virtual ~Observer() = default;
    virtual std::uint8_t wants() const { return 0; }

    // Block `linear` (x fastest) begins or has run to its end (not called when the launch stopped in it).
    virtual void blockBegin(const BlockState& /*blk*/, std::uint64_t /*linear*/) { }
    virtual void blockEnd(const BlockState& /*blk*/, std::uint64_t /*linear*/) { }
    // An instruction about to execute at w.pc: `active` the lanes whose guard held (for a
    // branch: the lanes that take it), w.mask the lanes executing together.
    virtual void issue(const Warp& /*w*/, const Instr& /*in*/, std::uint32_t /*active*/) { }
    // Instead of issue() for each: the n plain instructions from pc (PlainLines: no guard,
    // no control flow) have executed, once each, with the lanes `mask` (w.mask at the
    // first). Told after they ran and after their memory() events, which come one per
    // instruction as ever; n counts a faulting instruction, not those after it.
    virtual void issueLine(const Warp& /*w*/, std::uint32_t /*pc*/, std::uint32_t /*n*/, std::uint32_t /*mask*/) { }
    // The lanes' accesses of one instruction (`lanes.lanes`, per lane its resolved space,
    // address and size), delivered once the instruction has executed, before the next
    // event. printf and assert deliver each string read on its own.
    virtual void memory(const Warp& /*w*/, const Instr& /*in*/, const AccessLog& /*lanes*/) { }
    // Lanes of w arrive at barrier `bar`; every waiting thread is released from `bar`
    // (under synccheck also threads waiting at another barrier).
    virtual void barrierArrive(const Warp& /*w*/, const Instr& /*bar*/, std::uint32_t /*lanes*/) { }
    virtual void barrierRelease(const std::vector<Warp>& /*warps*/, const Instr& /*bar*/) { }
    // bar.warp.sync executed by `lanes`.
    virtual void warpSync(const Warp& /*w*/, const Instr& /*in*/, std::uint32_t /*lanes*/) { }
    // A warp collective (shfl, vote, redux, match .sync) that `lanes` took part in.
    virtual void warpCollective(const Warp& /*w*/, const Instr& /*in*/, std::uint32_t /*lanes*/) { }
    // fence.sc, fence.acq_rel or membar executed by `lanes`.
    virtual void fence(const Warp& /*w*/, const Instr& /*in*/, std::uint32_t /*lanes*/) { }
    // A fault stops the launch (after this event).
    virtual void fault(const Warp& /*w*/, const FaultEvent& /*f*/) { }
};

inline AccessKind accessKind(const Instr& in, const AccessLog& lanes)
{
    return in.atomic ? AccessKind::Atomic : lanes.write ? AccessKind::Store : AccessKind::Load;
}

} // namespace kw::sim
