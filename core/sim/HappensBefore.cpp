#include "sim/HappensBefore.hpp"

#include <algorithm>

namespace kw::sim {

void HappensBefore::reset(std::uint32_t threads)
{
    threads_ = threads;
    lanes_.assign(std::size_t(threads + 31) / 32 * 32 * 32, 0u); // whole warps: __syncwarp indexes by lane
    rows_.clear();
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
    std::uint32_t* joined = row(first);
    for (std::uint32_t m = members & (members - 1); m; m &= m - 1) {
        const std::uint32_t* r = row(warp * 32 + std::uint32_t(__builtin_ctz(m)));
        for (std::uint32_t t = 0; t < threads_; ++t)
            joined[t] = std::max(joined[t], r[t]);
    }
    for (std::uint32_t m = members & (members - 1); m; m &= m - 1)
        std::copy(joined, joined + threads_, row(warp * 32 + std::uint32_t(__builtin_ctz(m))));
}

void HappensBefore::publish(std::uint32_t thread, std::uint64_t location, std::uint32_t own, bool join)
{
    std::vector<std::uint32_t>& clock = published_[location];
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
    const std::vector<std::uint32_t>& clock = at->second;
    const std::uint32_t warp = thread / 32 * 32;
    std::uint32_t* mine = lanes(thread);
    for (std::uint32_t t = warp; t < std::min(warp + 32, threads_); ++t)
        mine[t - warp] = std::max(mine[t - warp], clock[t]);
    if (rows_.empty())
        rows_.assign(std::size_t(threads_) * threads_, 0u);
    std::uint32_t* known = row(thread);
    for (std::uint32_t t = 0; t < threads_; ++t)
        known[t] = std::max(known[t], clock[t]);
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
