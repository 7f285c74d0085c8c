#pragma once
// The observers attached to one BlockRunner, and the events sent to them. The frequent
// events keep lists of their own, so an observer that wants neither costs nothing per
// instruction; issue() and memory() are called only under the runner's one test.
#include "sim/Observer.hpp"

#include <algorithm>
#include <vector>

namespace kw::sim {

class ObserverList {
public:
    void add(Observer& o)
    {
        all_.push_back(&o);
        if (o.wants() & Observer::Issues)
            issue_.push_back(&o);
        if (o.wants() & Observer::Accesses)
            memory_.push_back(&o);
    }
    void remove(Observer& o)
    {
        for (auto* v : {&all_, &issue_, &memory_})
            v->erase(std::remove(v->begin(), v->end(), &o), v->end());
    }
    bool empty() const { return all_.empty(); }
    bool issues() const { return !issue_.empty(); }
    bool accesses() const { return !memory_.empty(); }
    // Every issue() observer takes issueLine() instead for a straight line (none: true).
    bool lines() const
    {
        return std::all_of(issue_.begin(), issue_.end(),
                           [](const Observer* o) { return o->wants() & Observer::Lines; });
    }

    void blockBegin(const BlockState& blk, std::uint64_t linear) const
    {
        for (Observer* o : all_)
            o->blockBegin(blk, linear);
    }
    void blockEnd(const BlockState& blk, std::uint64_t linear) const
    {
        for (Observer* o : all_)
            o->blockEnd(blk, linear);
    }
    void issue(const Warp& w, const Instr& in, std::uint32_t active) const
    {
        for (Observer* o : issue_)
            o->issue(w, in, active);
    }
    void issueLine(const Warp& w, std::uint32_t pc, std::uint32_t n, std::uint32_t mask) const
    {
        for (Observer* o : issue_)
            o->issueLine(w, pc, n, mask);
    }
    void memory(const Warp& w, const Instr& in, const AccessLog& lanes) const
    {
        for (Observer* o : memory_)
            o->memory(w, in, lanes);
    }
    void barrierArrive(const Warp& w, const Instr& bar, std::uint32_t lanes) const
    {
        for (Observer* o : all_)
            o->barrierArrive(w, bar, lanes);
    }
    void barrierRelease(const std::vector<Warp>& warps, const Instr& bar) const
    {
        for (Observer* o : all_)
            o->barrierRelease(warps, bar);
    }
    void warpSync(const Warp& w, const Instr& in, std::uint32_t lanes) const
    {
        for (Observer* o : all_)
            o->warpSync(w, in, lanes);
    }
    void warpCollective(const Warp& w, const Instr& in, std::uint32_t lanes) const
    {
        for (Observer* o : all_)
            o->warpCollective(w, in, lanes);
    }
    void fence(const Warp& w, const Instr& in, std::uint32_t lanes) const
    {
        for (Observer* o : all_)
            o->fence(w, in, lanes);
    }
    void fault(const Warp& w, const FaultEvent& f) const
    {
        for (Observer* o : all_)
            o->fault(w, f);
    }

private:
    std::vector<Observer*> all_, issue_, memory_;
};

} // namespace kw::sim
