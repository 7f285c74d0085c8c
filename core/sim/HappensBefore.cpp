#include "sim/HappensBefore.hpp"

#include <algorithm>

namespace kw::sim {

void HappensBefore::reset(std::uint32_t threads)
{
    threads_ = threads;
    lanes_.assign(std::size_t(threads + 31) / 32 * 32 * 32, 0u); // whole warps: __syncwarp indexes by lane
    rows_.clear();
    rowStamp_.clear();
    joined_.clear();
    stamps_ = versions_ = 0;
    published_.clear();
    fencedAt_.clear();
    awaiting_.clear();
}

void HappensBefore::syncWarp(std::uint32_t warp, std::uint32_t members)
{
    std::uint32_t* base = lanes(warp * 32);
    std::uint32_t joined[32] = {};
    for (std::uint32_t m = members; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        ++base[l * 32 + l]; // what a lane does from here on is later than what it did
        for (int k = 0; k < 32; ++k)
            joined[k] = std::max(joined[k], base[l * 32 + k]);
    }
    for (std::uint32_t m = members; m; m &= m - 1)
        std::copy(joined, joined + 32, base + __builtin_ctz(m) * 32);
    joinRows(warp, members);
}

void HappensBefore::meet(std::uint32_t warp, std::uint32_t members) { joinRows(warp, members); }

void HappensBefore::joinRows(std::uint32_t warp, std::uint32_t members)
{
    if (rows_.empty() || !members)
        return;
    const std::uint32_t first = warp * 32 + std::uint32_t(__builtin_ctz(members));
    const std::uint32_t* stamp = rowStamp_.data() + warp * 32;
    bool same = true;
    for (std::uint32_t m = members; m && same; m &= m - 1)
        same = stamp[__builtin_ctz(m)] == rowStamp_[first];
    if (same)
        return;
    std::uint32_t* joined = row(first);
    for (std::uint32_t m = members & (members - 1); m; m &= m - 1) {
        const std::uint32_t* r = row(warp * 32 + std::uint32_t(__builtin_ctz(m)));
        for (std::uint32_t t = 0; t < threads_; ++t)
            joined[t] = std::max(joined[t], r[t]);
    }
    ++stamps_;
    for (std::uint32_t m = members; m; m &= m - 1) {
        const std::uint32_t t = warp * 32 + std::uint32_t(__builtin_ctz(m));
        if (t != first)
            std::copy(joined, joined + threads_, row(t));
        rowStamp_[t] = stamps_;
    }
}

void HappensBefore::publish(std::uint32_t thread, std::uint64_t location, std::uint32_t own, bool join)
{
    Published& at = published_[location];
    at.version = ++versions_;
    std::vector<std::uint32_t>& clock = at.clock;
    if (!join || clock.empty())
        clock.assign(threads_, 0u);
    const std::uint32_t warp = thread / 32 * 32;
    const std::uint32_t* mine = lanes(thread);
    for (std::uint32_t t = warp; t < std::min(warp + 32, threads_); ++t)
        clock[t] = std::max(clock[t], mine[t - warp]);
    clock[thread] = std::max(clock[thread], own);
    if (rows_.empty())
        return;
    const std::uint32_t* known = row(thread);
    for (std::uint32_t t = 0; t < threads_; ++t)
        if (t / 32 * 32 != warp)
            clock[t] = std::max(clock[t], known[t]);
}

void HappensBefore::release(std::uint32_t thread, std::uint64_t location, bool readModifyWrite)
{
    // Later accesses of the thread are not covered by what this release publishes.
    const std::uint32_t own = ++lanes(thread)[thread % 32];
    publish(thread, location, own, readModifyWrite);
}

void HappensBefore::strongWrite(std::uint32_t thread, std::uint64_t location, bool readModifyWrite)
{
    if (fenced(thread))
        publish(thread, location, fencedAt_[thread], readModifyWrite);
    else if (!readModifyWrite)
        published_.erase(location);
}

void HappensBefore::acquire(std::uint32_t thread, std::uint64_t location)
{
    const auto at = published_.find(location);
    if (at == published_.end())
        return;
    if (rows_.empty()) {
        rows_.assign(std::size_t(threads_) * threads_, 0u);
        rowStamp_.assign(std::size_t(threads_ + 31) / 32 * 32, 0u);
        joined_.assign(threads_, 0u);
    }
    if (joined_[thread] == at->second.version) // a spin wait reading it again
        return;
    joined_[thread] = at->second.version;
    const std::vector<std::uint32_t>& clock = at->second.clock;
    const std::uint32_t warp = thread / 32 * 32;
    std::uint32_t* mine = lanes(thread);
    for (std::uint32_t t = warp; t < std::min(warp + 32, threads_); ++t)
        mine[t - warp] = std::max(mine[t - warp], clock[t]);
    std::uint32_t* known = row(thread);
    for (std::uint32_t t = 0; t < threads_; ++t)
        known[t] = std::max(known[t], clock[t]);
    rowStamp_[thread] = ++stamps_;
}

void HappensBefore::fence(std::uint32_t thread)
{
    if (fencedAt_.empty())
        fencedAt_.assign(threads_, 0u);
    // What the thread did before the fence is ordered before its next strong write's readers.
    fencedAt_[thread] = ++lanes(thread)[thread % 32];
    if (std::uint64_t& read = awaiting(thread)) {
        acquire(thread, read - 1);
        read = 0;
    }
}

std::uint64_t& HappensBefore::awaiting(std::uint32_t thread)
{
    if (awaiting_.empty())
        awaiting_.assign(threads_, 0u);
    return awaiting_[thread];
}

} // namespace kw::sim
