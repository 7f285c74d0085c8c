#pragma once
// Global and constant allocations at fake device addresses, backed by host arrays.
#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct MemRegion {
    std::uint64_t base = 0, size = 0;
    std::uint8_t* host = nullptr;
    std::string name; // "buffer 'c'", "global '$str'"
    bool readOnly = false;
    // initcheck across launches (a resident buffer of a document of steps): 1 for each byte
    // that holds data, updated as the launch writes; null: every byte does.
    std::uint8_t* written = nullptr;
    std::uint32_t elementBytes = 1; // for the element a finding names
};

class MemoryMap {
public:
    // Maps host memory at `at` (0: the next free fake address, with a guard gap).
    std::uint64_t map(std::string name, std::uint8_t* host, std::uint64_t size, bool readOnly, std::uint64_t at = 0);
    // The region containing [addr, addr+size), or nullptr.
    const MemRegion* find(std::uint64_t addr, std::uint64_t size) const;
    // Gives the region at `base` its shadow of written bytes (MemRegion::written).
    void track(std::uint64_t base, std::uint8_t* written, std::uint32_t elementBytes);
    // Whether any region has a shadow: if not, global accesses need no look-up under initcheck.
    bool tracked() const { return tracked_; }
    // Where an address lies relative to the nearest allocation, for fault messages.
    std::string describe(std::uint64_t addr, std::uint64_t size) const;
    const std::vector<MemRegion>& regions() const { return regions_; }

private:
    std::vector<MemRegion> regions_; // sorted by base
    std::uint64_t next_ = 0;
    bool tracked_ = false;
};

} // namespace kw::sim
