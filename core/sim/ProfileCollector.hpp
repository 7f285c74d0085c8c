#pragma once
// Per-instruction counters of a profiled launch (docs/profile.md). Each worker thread
// attaches one collector to its BlockRunner and counts per instruction index (pc), with
// no locks; mergeProfile() sums the workers' arrays into source lines once the grid has run.
//
// An observer of every warp-level instruction (issue) and of each memory instruction's
// lanes (memory), which become one request: its 32-byte sectors or shared-memory wavefronts.
#include "launch/KernelProfile.hpp"
#include "sim/Observer.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace kw::sim {

struct Warp;

// The capture request resolved against the module: the warp whose lanes are recorded.
struct CaptureTarget {
    std::uint16_t file = 0;
    std::uint32_t line = 0;
    Dim3 block;
    std::uint32_t warp = 0;
    std::uint32_t maxSamples = 8;
};

// The block (linear index) whose requests set an instruction's first-pattern extras: its
// stride in each space and its global run bytes. Workers' collectors merge to what one
// worker running every block in order finds: the lowest block's value wins, and within a
// block the earliest request's, which one worker alone decides.
struct FirstPatterns {
    static constexpr std::uint64_t kNone = ~std::uint64_t(0);
    std::uint64_t globalStride = kNone, sharedStride = kNone, globalRun = kNone;
};

struct PcCounters {
    ProfileCounters counters;
    ProfileExtras extras;
    FirstPatterns firsts;

    // Adds another worker's counts of the same instruction; the first patterns by block.
    void merge(const PcCounters& other);
};

class ProfileCollector : public Observer {
public:
    ProfileCollector(const Function& fn, const std::optional<CaptureTarget>& capture);

    // Lines unless the environment names KW_SIM_PROFILE_PER_INSTRUCTION (the tests' switch:
    // one issue() per instruction, to compare counts with).
    std::uint8_t wants() const override { return Issues | Accesses | (lines_ ? Lines : 0); }
    // Arms the capture when this block holds the captured warp.
    void blockBegin(const BlockState& blk, std::uint64_t linear) override;
    void issue(const Warp& w, const Instr& in, std::uint32_t active) override;
    void issueLine(const Warp& w, std::uint32_t pc, std::uint32_t n, std::uint32_t mask) override;
    void memory(const Warp& w, const Instr& in, const AccessLog& lanes) override;

    std::vector<PcCounters> pcs;       // per instruction index
    std::vector<AccessSample> samples; // the captured warp's accesses, in execution order

private:
    // An instruction's requests looked at for its patterns in the current block.
    struct PatternTries {
        std::uint64_t block = FirstPatterns::kNone;
        std::uint32_t global = 0, shared = 0;
    };

    const Instr* code_ = nullptr;
    std::optional<CaptureTarget> capture_;
    std::vector<PatternTries> tries_; // per instruction index
    std::uint64_t block_ = 0;         // the block running now
    bool captureBlock_ = false;
    bool lines_ = true;

    void globalPatterns(PcCounters& p, PatternTries& tries, const AccessLog& log, std::uint32_t lanes, bool store);
    void sharedPatterns(PcCounters& p, PatternTries& tries, const AccessLog& log, std::uint32_t lanes, bool store);

    void capture(const Warp& w, const Instr& in, std::uint32_t pc, const AccessLog& log);
};

// The distinct 32-byte sectors the lanes' bytes [addr, addr + size) touch, and the
// fewest sectors their distinct bytes could fit (ceil(distinct bytes / 32)).
struct SectorCount {
    std::uint32_t sectors = 0, ideal = 0;
};
SectorCount countSectors(const std::uint64_t* addr, const std::uint32_t* size, std::uint32_t lanes);

// Shared-memory wavefronts of one request: 32 banks of 4 bytes; lanes reading one word
// share it; the warp is served in phases of 128 bytes (8-byte accesses: half-warps,
// 16-byte: quarter-warps), each phase as many wavefronts as the busiest bank has distinct
// words, at least one when it has active lanes. ideal: the phases with active lanes.
// regularHalves: a whole warp whose half-warps each ask for one address or consecutive
// elements (AccessLog::regularHalves), which 4-byte lanes count from lanes 0, 1 and 16.
struct WavefrontCount {
    std::uint32_t wavefronts = 0, ideal = 0, worst = 0; // worst: the most distinct words of one bank
    bool operator==(const WavefrontCount&) const = default;
};
WavefrontCount countWavefronts(const std::uint64_t* offset, std::uint32_t size, std::uint32_t lanes,
                               bool regularHalves = false);

// Sums the workers' counters and groups them by source line. The file named most often
// by the function's instructions is the main file; lines with line number 0 (no .loc)
// count in the totals only.
KernelProfile mergeProfile(const Module& mod, const Function& fn,
                           const std::vector<const ProfileCollector*>& collectors, std::uint32_t maxSamples);

// The file index most of the function's located instructions name.
std::uint16_t mainFile(const Function& fn);

} // namespace kw::sim
