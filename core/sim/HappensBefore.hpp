#pragma once
// What each thread of a block knows of the others' progress, as vector clocks, for the
// race detector. A thread's accesses are stamped with its own clock; an access is
// ordered before another thread's when that thread knows a later clock of its author.
//
// Within a warp, __syncwarp joins the member lanes' clocks (32 per lane, always kept).
// Across warps, release/acquire does (PTX memory model): a release publishes the
// releasing thread's clock at a location, an acquire reading that location joins it.
// Knowledge of other warps takes a row of the block's width per thread, allocated at
// the first acquire of a published clock, so a block that never synchronises that way
// costs nothing more. A fence followed by a strong write is a release, a strong read
// followed by a fence an acquire. bar.sync needs no clock: the detector's epochs order
// everything before it.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kw::sim {

class HappensBefore {
public:
    // A new block of `threads` threads: nothing is known, nothing published.
    void reset(std::uint32_t threads);

    std::uint32_t now(std::uint32_t thread) { return lanes(thread)[thread % 32]; }
    // Whether other's access at its clock `then` is ordered before what thread does now.
    bool ordered(std::uint32_t other, std::uint32_t then, std::uint32_t thread)
    {
        if (other / 32 == thread / 32)
            return lanes(thread)[other % 32] > then;
        return !rows_.empty() && rows_[std::size_t(thread) * threads_ + other] > then;
    }

    // bar.warp.sync by `members` of `warp`: each knows all that any of them knew.
    void syncWarp(std::uint32_t warp, std::uint32_t members);
    // A warp collective: the members ran together, so what one learnt of other warps by
    // an acquire holds for all after it. Their order among themselves still needs a __syncwarp.
    void meet(std::uint32_t warp, std::uint32_t members);

    // The memory-model events of one thread at `location` (a word of one state space).
    void release(std::uint32_t thread, std::uint64_t location, bool readModifyWrite);
    void acquire(std::uint32_t thread, std::uint64_t location);
    void fence(std::uint32_t thread);
    // A strong write without release semantics: a release after a fence; a plain store
    // ends the release sequence of the location (a read-modify-write continues it).
    void strongWrite(std::uint32_t thread, std::uint64_t location, bool readModifyWrite);
    // A strong read without acquire semantics: an acquire once the thread fences.
    void strongRead(std::uint32_t thread, std::uint64_t location) { awaiting(thread) = location + 1; }
    // Whether the thread has fenced since the block began: its strong writes release.
    bool fenced(std::uint32_t thread) const { return !fencedAt_.empty() && fencedAt_[thread] != 0; }

private:
    // A clock published at a location; `version` is unique in the block, so a thread spinning
    // on an unchanged location joins it once.
    struct Published {
        std::uint32_t version = 0;
        std::vector<std::uint32_t> clock; // [thread]
    };
    std::uint32_t threads_ = 0;
    std::vector<std::uint32_t> lanes_; // [thread][lane]: what thread knows of its warp's lanes
    std::vector<std::uint32_t> rows_;  // [thread][thread]: what thread knows of other warps, or empty
    // [thread]: rows with one stamp are equal (a warp's lanes after they met), so meeting again joins nothing.
    std::vector<std::uint32_t> rowStamp_;
    std::vector<std::uint32_t> joined_; // [thread]: the version it last acquired
    std::uint32_t stamps_ = 0, versions_ = 0;
    std::unordered_map<std::uint64_t, Published> published_; // by location
    std::vector<std::uint32_t> fencedAt_;                    // [thread]: own clock at its last fence, 0 none (or empty)
    std::vector<std::uint64_t> awaiting_;                    // [thread]: location + 1 of its last strong read, 0 none

    std::uint32_t* lanes(std::uint32_t thread) { return lanes_.data() + std::size_t(thread) * 32; }
    std::uint32_t* row(std::uint32_t thread) { return rows_.data() + std::size_t(thread) * threads_; }
    std::uint64_t& awaiting(std::uint32_t thread);
    // Publish thread's clock at location, its own entry `own`: joined or replacing what is there.
    void publish(std::uint32_t thread, std::uint64_t location, std::uint32_t own, bool join);
    // Join row-wise knowledge of members of warp (their rows of other warps).
    void joinRows(std::uint32_t warp, std::uint32_t members);
};

} // namespace kw::sim
