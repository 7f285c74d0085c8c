#include "debug/DebugObserver.hpp"

#include "sim/Warp.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

namespace kw::debug {

using namespace kw::sim;

DebugObserver::DebugObserver(const Function& fn)
    : fn_(fn)
{
    rebuildBreakAt();
}

void DebugObserver::attach(BlockRunner& runner, std::uint64_t base)
{
    runner_ = &runner;
    base_ = base;
    attached_ = true;
    runner.observe(*this);
    updateFilter();
}

void DebugObserver::detach()
{
    if (!runner_ || !attached_)
        return;
    runner_->forget(*this);
    runner_->setIssueFilter(nullptr);
    attached_ = false; // the runner may go (a restart) before the next attach
}

void DebugObserver::reattach()
{
    if (!runner_ || !attached_)
        return;
    runner_->forget(*this);
    runner_->observe(*this);
    updateFilter();
}

void DebugObserver::updateFilter()
{
    if (!runner_ || !attached_)
        return;
    const bool everywhere = motion_ || pauseNext_ || nextWatch_ || alwaysIssues_ || breakAt_.size() != fn_.code.size();
    runner_->setIssueFilter(everywhere ? nullptr : breakAt_.data());
}

// Nothing armed (a `continue` without breakpoints or watchpoints): no event per
// instruction, and the launch runs as fast as a plain one. The runner reads this when the
// observer is attached (reattach() before each resumption).
std::uint8_t DebugObserver::wants() const
{
    const bool armed = !breakpoints_.empty() || !watches_.empty() || motion_ || pauseNext_ || barrierBlock_
        || beginBlock_ || endBlock_ || recording_ || alwaysIssues_;
    return (armed ? Issues : 0) | (watches_.empty() ? 0 : Accesses);
}

void DebugObserver::rebuildBreakAt()
{
    breakAt_.assign(fn_.code.size(), 0);
    for (const auto& b : breakpoints_)
        for (std::uint32_t pc : b.pcs)
            breakAt_[pc] = 1;
    updateFilter();
}

void DebugObserver::clearMotions()
{
    motion_ = nullptr;
    barrierBlock_.reset();
    beginBlock_.reset();
    endBlock_.reset();
    pauseNext_.reset();
    quiet_ = false;
    updateFilter();
}

DebugObserver::Armed DebugObserver::takeMotions()
{
    Armed a{std::move(motion_), barrierBlock_, beginBlock_, endBlock_};
    clearMotions();
    return a;
}

void DebugObserver::restoreMotions(Armed armed)
{
    motion_ = std::move(armed.motion);
    barrierBlock_ = armed.barrierBlock;
    beginBlock_ = armed.beginBlock;
    endBlock_ = armed.endBlock;
    updateFilter();
}

void DebugObserver::forgetHistory()
{
    pending_.reset();
    nextWatch_.reset();
    fault_.reset();
    for (auto& b : breakpoints_)
        std::fill(b.arrived.begin(), b.arrived.end(), 0u);
    updateFilter();
}

void DebugObserver::forgetHitsAfter(std::uint64_t position)
{
    auto undo = [position](std::vector<std::uint64_t>& at, std::uint64_t& hits) {
        std::erase_if(at, [position](std::uint64_t p) { return p > position; });
        hits = at.size();
    };
    for (auto& b : breakpoints_)
        undo(b.hitAt, b.info.hits);
    for (auto& wa : watches_)
        undo(wa.hitAt, wa.info.hits);
}

DebugObserver::Hits DebugObserver::hits() const
{
    Hits h;
    for (const auto& b : breakpoints_)
        h.push_back(b.hitAt);
    for (const auto& wa : watches_)
        h.push_back(wa.hitAt);
    return h;
}

void DebugObserver::restoreHits(const Hits& h)
{
    if (h.size() != breakpoints_.size() + watches_.size())
        return;
    std::size_t i = 0;
    for (auto& b : breakpoints_) {
        b.hitAt = h[i++];
        b.info.hits = b.hitAt.size();
    }
    for (auto& wa : watches_) {
        wa.hitAt = h[i++];
        wa.info.hits = wa.hitAt.size();
    }
}

void DebugObserver::pauseAtNextIssue(StopReason why, std::string message)
{
    pauseNext_ = why;
    pauseMessage_ = std::move(message);
    updateFilter();
}

std::string readableName(const std::string& name)
{
    int status = 0;
    char* plain = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !plain)
        return name;
    std::string out(plain);
    std::free(plain);
    return out;
}

void DebugObserver::finding(std::uint32_t warp, int lane, std::string message)
{
    if (quiet_ || pauseNext_)
        return;
    findingWarp_ = warp;
    findingLane_ = lane;
    pauseAtNextIssue(StopReason::Finding, std::move(message));
}

Location DebugObserver::locate(std::uint32_t pc) const
{
    Location loc;
    loc.pc = pc;
    if (pc >= fn_.code.size())
        return loc;
    const Instr& in = fn_.code[pc];
    loc.line = in.line;
    loc.file = runner_ ? runner_->block().launch->mod->fileName(in.file) : std::string();
    loc.instruction = fn_.text[pc];
    const auto stack = fn_.callStack(pc);
    loc.function = readableName(stack.empty() ? fn_.name : stack.front()->function);
    return loc;
}

void DebugObserver::stopHere(const Warp& w, StopReason why, int lane, int breakpoint, std::string message)
{
    Stop s;
    s.reason = why;
    s.position = position();
    s.block = runner_->linear();
    s.warp = w.warpId;
    s.lane = lane;
    s.breakpoint = breakpoint;
    s.message = std::move(message);
    if (recording_ && why != StopReason::Paused) { // a client's pause stops a search too
        recorded_.push_back(std::move(s));
        return;
    }
    pending_ = std::move(s);
    runner_->requestPause();
}

void DebugObserver::blockBegin(const BlockState& /*blk*/, std::uint64_t linear)
{
    if (blockBegins_.size() <= linear)
        blockBegins_.resize(linear + 1, ~std::uint64_t(0));
    blockBegins_[linear] = position();
    if (onBlockBegin_ && !recording_)
        onBlockBegin_(linear, position());
    for (auto& b : breakpoints_)
        std::fill(b.arrived.begin(), b.arrived.end(), 0u);
    for (auto& wa : watches_)
        if (wa.space == Space::Shared)
            wa.last = 0; // a block's shared memory starts zeroed
    if (beginBlock_ && *beginBlock_ == linear)
        pauseAtNextIssue(StopReason::BlockBegin);
}

void DebugObserver::blockEnd(const BlockState& /*blk*/, std::uint64_t linear)
{
    if (endBlock_ && *endBlock_ == linear && !pauseNext_)
        pauseAtNextIssue(StopReason::BlockDone);
}

void DebugObserver::barrierRelease(const std::vector<Warp>& /*warps*/, const Instr& /*bar*/)
{
    if (barrierBlock_ && *barrierBlock_ == runner_->linear())
        pauseAtNextIssue(StopReason::Barrier);
}

void DebugObserver::fault(const Warp& w, const FaultEvent& f)
{
    if (fault_) // the launch keeps its first fault; so does the stop
        return;
    Stop s;
    s.reason = StopReason::Fault;
    s.position = position();
    s.block = runner_->linear();
    s.warp = w.warpId;
    s.lane = f.lane;
    s.message = f.what;
    fault_ = std::move(s);
}

int DebugObserver::breakpointLane(ArmedBreakpoint& b, const Warp& w, const Instr& in, std::uint32_t active)
{
    const auto at = std::find(b.pcs.begin(), b.pcs.end(), w.pc);
    if (at == b.pcs.end())
        return -1;
    // A branch's guard says which lanes jump, not which lanes reach the line.
    std::uint32_t lanes = in.ctrl == Ctrl::Bra ? w.mask : active;
    if (!lanes)
        return -1;
    if (b.info.spec.mode == BreakMode::AllLanes) {
        if (b.arrived.size() <= w.warpId)
            b.arrived.resize(w.warpId + 1, 0);
        std::uint32_t& arrived = b.arrived[w.warpId];
        arrived |= lanes;
        const std::uint32_t live = w.exists & ~w.exited;
        if ((arrived & live) != live)
            return -1;
        lanes = arrived & live;
        arrived = 0;
    }
    int lane = __builtin_ctz(lanes);
    if (!b.conditions.empty())
        lane = b.conditions[std::size_t(at - b.pcs.begin())]->firstTrue(w, lanes);
    if (lane < 0)
        return -1;
    if (recording_) // hit counts belong to the forward run
        return lane;
    b.hitAt.push_back(position());
    if (++b.info.hits <= b.info.spec.ignore)
        return -1;
    return lane;
}

void DebugObserver::issue(const Warp& w, const Instr& in, std::uint32_t active)
{
    if (pending_)
        return;
    if (nextWatch_) {
        WatchHit hit = std::move(*nextWatch_);
        nextWatch_.reset();
        stopHere(w, StopReason::Watch, hit.lane);
        Stop& made = recording_ ? recorded_.back() : *pending_;
        made.block = hit.block;
        made.warp = hit.warp;
        made.watch = std::move(hit);
        updateFilter();
        return;
    }
    // A client's pause lets the breakpoints and the motion judge this instruction first:
    // it is not announced again when the launch goes on, so it must not go unjudged.
    if (pauseNext_ && *pauseNext_ != StopReason::Paused) {
        const StopReason why = *pauseNext_;
        pauseNext_.reset();
        stopHere(w, why, -1, 0, std::move(pauseMessage_));
        if (why == StopReason::Finding) { // at the lane the check names
            Stop& made = recording_ ? recorded_.back() : *pending_;
            made.warp = findingWarp_;
            made.lane = findingLane_;
        }
        updateFilter();
        return;
    }
    if (!quiet_ && !breakAt_.empty() && breakAt_[w.pc]) [[unlikely]] {
        for (auto& b : breakpoints_) {
            const int lane = breakpointLane(b, w, in, active);
            if (lane >= 0) {
                stopHere(w, StopReason::Breakpoint, lane, b.info.id);
                return;
            }
        }
    }
    if (motion_) {
        if (const auto why = motion_(w, in, active)) {
            stopHere(w, *why, -1);
            return;
        }
    }
    if (pauseNext_) { // Paused
        pauseNext_.reset();
        stopHere(w, StopReason::Paused, -1, 0, std::move(pauseMessage_));
        updateFilter();
    }
}

double DebugObserver::watchValue(const ArmedWatch& wa) const
{
    const std::uint8_t* p = wa.host;
    if (wa.space == Space::Shared) {
        if (!runner_)
            return 0;
        p = runner_->block().shared + wa.address;
    }
    return p ? loadAsDouble(wa.type, p) : 0;
}

void DebugObserver::refreshWatches()
{
    for (auto& wa : watches_)
        wa.last = watchValue(wa);
}

void DebugObserver::memory(const Warp& w, const Instr& in, const AccessLog& log)
{
    if (quiet_ || nextWatch_)
        return;
    const AccessKind kind = accessKind(in, log);
    for (auto& wa : watches_) {
        const bool wrote = kind != AccessKind::Load;
        const bool read = kind != AccessKind::Store;
        if (wa.info.spec.reads ? !read : !wrote)
            continue;
        const std::uint32_t inSpace = log.inSpace[static_cast<int>(wa.space)];
        for (std::uint32_t m = inSpace; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            if (!(log.addr[l] < wa.address + wa.size && wa.address < log.addr[l] + log.size[l]))
                continue;
            const double now = watchValue(wa);
            WatchHit hit;
            hit.watch = wa.info.id;
            hit.write = !wa.info.spec.reads;
            hit.block = runner_->linear();
            hit.warp = w.warpId;
            hit.lane = l;
            hit.where = locate(std::uint32_t(&in - fn_.code.data()));
            hit.oldValue = wa.last;
            hit.newValue = now;
            wa.last = now;
            if (!recording_) {
                wa.hitAt.push_back(position());
                ++wa.info.hits;
            }
            nextWatch_ = std::move(hit);
            updateFilter();
            return;
        }
    }
}

} // namespace kw::debug
