#pragma once
// A warp's asynchronous copies in flight (cp.async): each lane's copies in groups, the
// open one and those it committed. A copy lands when its lane waits for its group
// (cp.async.wait_group, wait_all), not before: a program that reads the destination
// earlier reads what was there, and racecheck sees the write where it lands.
#include "sim/PtxTypes.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace kw::sim {

struct Instr;

struct PendingCopy {
    std::uint64_t dst = 0;      // a shared-memory offset
    std::uint64_t src = 0;      // a global address
    std::uint32_t bytes = 0;    // cp-size: 4, 8 or 16
    std::uint32_t srcBytes = 0; // read from src; the rest of the bytes are zeros
    std::uint32_t group = 0;    // the lane's group it belongs to
    int lane = 0;
    const Instr* issued = nullptr; // the cp.async, where its accesses are reported
};

class AsyncCopies {
public:
    void clear();
    // Into the lane's open group.
    void add(PendingCopy c);
    // cp.async.commit_group: each lane's open group becomes its newest committed one.
    void commit(std::uint32_t lanes);
    // cp.async.wait_group keep: the copies of `lanes` in all but their `keep` newest
    // committed groups, taken out, in the order they were issued; without `keep`, all of
    // them, committed or not (cp.async.mbarrier.arrive).
    std::vector<PendingCopy> due(std::uint32_t lanes, std::optional<std::uint32_t> keep);

private:
    std::vector<PendingCopy> copies_;
    std::uint32_t committed_[32] = {};
};

} // namespace kw::sim
