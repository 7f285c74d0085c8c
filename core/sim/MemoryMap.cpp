#include "sim/MemoryMap.hpp"

#include "sim/PtxTypes.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::sim {

std::uint64_t MemoryMap::map(std::string name, std::uint8_t* host, std::uint64_t size, bool readOnly, std::uint64_t at)
{
    if (at == 0)
        at = next_ == 0 ? kGlobalBase + 0x100000000ull : next_;
    MemRegion r{at, size, host, std::move(name), readOnly};
    // Allocations are 256-byte aligned like cudaMalloc's, with a gap so overruns land nowhere.
    next_ = std::max(next_, (at + size + 4096 + 255) / 256 * 256);
    auto it = std::upper_bound(regions_.begin(), regions_.end(), at,
                               [](std::uint64_t a, const MemRegion& m) { return a < m.base; });
    regions_.insert(it, std::move(r));
    return at;
}

const MemRegion* MemoryMap::find(std::uint64_t addr, std::uint64_t size) const
{
    auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                               [](std::uint64_t a, const MemRegion& m) { return a < m.base; });
    if (it == regions_.begin())
        return nullptr;
    --it;
    if (addr - it->base < it->size && size <= it->size - (addr - it->base))
        return &*it;
    return nullptr;
}

void MemoryMap::track(std::uint64_t base, std::uint8_t* written, std::uint32_t elementBytes)
{
    for (MemRegion& r : regions_)
        if (r.base == base) {
            r.written = written;
            r.elementBytes = elementBytes;
            tracked_ = tracked_ || written;
        }
}

std::string MemoryMap::describe(std::uint64_t addr, std::uint64_t size) const
{
    if (addr < 4096)
        return "a null pointer";
    const MemRegion* best = nullptr;
    std::uint64_t bestDist = ~0ull;
    for (const auto& r : regions_) {
        std::uint64_t dist = addr >= r.base + r.size ? addr - (r.base + r.size) : addr < r.base ? r.base - addr : 0;
        if (dist < bestDist) {
            bestDist = dist;
            best = &r;
        }
    }
    if (!best || bestDist > (1ull << 30))
        return "no allocation";
    if (addr >= best->base + best->size)
        return fmt::format("{} bytes past the end of {} (0x{:x}, {} bytes)", addr - (best->base + best->size),
                           best->name, best->base, best->size);
    if (addr < best->base)
        return fmt::format("{} bytes before {} (0x{:x}, {} bytes)", best->base - addr, best->name, best->base,
                           best->size);
    return fmt::format("overlapping the end of {} (0x{:x}, {} bytes)", best->name, best->base, best->size);
}

} // namespace kw::sim
