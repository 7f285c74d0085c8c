#pragma once
// What one warp's memory access comes to, lane by lane: the distinct 32-byte sectors a
// global (or local) access touches against the fewest its bytes could fit, or the
// shared memory words each of the 32 banks is asked for and the wavefronts that takes.
// The words of the access picture's caption come from here too.
#include "launch/KernelProfile.hpp"

#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace kw {

class AccessStats {
public:
    static constexpr std::uint64_t SectorBytes = 32;
    static constexpr int Banks = 32;
    static constexpr std::uint64_t BankBytes = 4;

    static AccessStats of(const AccessSample& sample);

    AccessSample::Space space = AccessSample::Space::Global;
    bool store = false;
    int activeLanes = 0;
    std::uint32_t laneBytes = 0;        // the bytes each active lane moves; 0 when they differ
    std::uint64_t lowest = 0;           // lowest address an active lane touches
    std::uint64_t uniqueBytes = 0;      // distinct bytes the active lanes touch
    std::optional<std::int64_t> stride; // bytes between neighbouring active lanes, when one step fits all

    // Global and local: the distinct sectors (address / 32), in address order.
    std::vector<std::uint64_t> sectors;
    int idealSectors = 0; // ceil(uniqueBytes / 32)

    // Shared: the distinct words (offset / 4) each bank is asked for, in order.
    std::array<std::vector<std::uint64_t>, Banks> bankWords;
    int phases = 1;     // 8-byte accesses go in 2 halves of the warp, 16-byte in 4
    int stackDepth = 0; // most distinct words in one bank over the warp
    int worstWays = 0;  // most distinct words in one bank within one phase
    int wavefronts = 0, idealWavefronts = 0;
    int broadcastWords = 0; // words more than one lane reads

    bool isShared() const { return space == AccessSample::Space::Shared; }
    // The phase of a lane: which part of the warp its wavefronts go with.
    int phaseOf(int lane) const { return lane / (32 / phases); }

    // "4 sectors for 128 bytes: coalesced", "32-way bank conflict: 32 wavefronts where 1 would do".
    QString headline() const;
    // Lanes, sizes and what the picture's numbers are.
    QString detail() const;
};

} // namespace kw
