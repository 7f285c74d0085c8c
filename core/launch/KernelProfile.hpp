#pragma once
// What the simulator counts while it runs a kernel, per source line and per kernel,
// named and counted as Nsight Compute counts them on a GPU (docs/profile.md).
#include "launch/Dim3.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw {

// The counters, each per warp-level PTX instruction executed.
struct ProfileCounters {
    std::uint64_t inst_executed = 0;                             // warp-level instructions
    std::uint64_t thread_inst_executed = 0;                      // their active lanes, summed
    std::uint64_t divergent_branches = 0;                        // branches whose active lanes split
    std::uint64_t global_ld_requests = 0, global_ld_sectors = 0; // 32-byte sectors
    std::uint64_t global_st_requests = 0, global_st_sectors = 0;
    std::uint64_t shared_ld_requests = 0, shared_ld_wavefronts = 0; // 32 banks of 4 bytes
    std::uint64_t shared_st_requests = 0, shared_st_wavefronts = 0;
    std::uint64_t local_ld_requests = 0, local_st_requests = 0;
    std::uint64_t atomic_requests = 0;

    ProfileCounters& operator+=(const ProfileCounters& o);
    bool operator==(const ProfileCounters&) const = default;
};

// Figures the counters alone cannot give, needed for the derived figures and findings.
struct ProfileExtras {
    std::uint64_t branches = 0;                // branch instructions executed (warp level)
    std::uint64_t global_ld_ideal_sectors = 0; // the fewest sectors the requests' bytes could fit
    std::uint64_t global_st_ideal_sectors = 0;
    std::uint64_t shared_ideal_wavefronts = 0; // loads and stores: one per 128 bytes asked for
    std::uint32_t worst_bank_conflict = 0;     // most lanes that hit one bank with distinct words
    std::uint32_t global_stride_bytes = 0;     // address step between neighbouring lanes, when regular
    // The same, per direction. A stride is the step between the addresses of neighbouring
    // active lanes (its magnitude) in the first request where all steps agree, among each
    // block's first 32 requests of an instruction, blocks in order; 0 when none did.
    std::uint64_t shared_ld_ideal_wavefronts = 0, shared_st_ideal_wavefronts = 0; // sum: shared_ideal_wavefronts
    std::uint32_t global_ld_stride_bytes = 0, global_st_stride_bytes = 0;
    std::uint32_t shared_ld_stride_bytes = 0, shared_st_stride_bytes = 0;
    std::uint32_t global_ld_bytes = 0, global_st_bytes = 0; // the widest access of one lane
    std::uint64_t global_ld_lanes = 0, global_st_lanes = 0; // active lanes of the requests, summed
    // When the lanes follow no one stride: the bytes of each run of contiguous addresses in
    // the first request, before the one that gave the stride, that splits into two or more
    // equal runs (a block narrower than 32 threads reading rows); 0 when none did.
    std::uint32_t global_ld_run_bytes = 0, global_st_run_bytes = 0;
    std::uint32_t shared_bytes = 0;
    std::uint64_t atomic_lanes = 0;     // lanes of the atomic requests, summed
    std::uint64_t atomic_addresses = 0; // distinct addresses per atomic request, summed

    // Sums and maxima; a stride or run already set stays (`o` is a later instruction or run).
    // The simulator's workers are merged by block instead (sim::PcCounters::merge).
    ProfileExtras& operator+=(const ProfileExtras& o);
    bool operator==(const ProfileExtras&) const = default;
};

struct LineProfile {
    std::string file; // as -lineinfo names it
    int line = 0;
    ProfileCounters counters;
    ProfileExtras extras;
    // A document of steps: the steps whose launches ran this line, in the order they first
    // did ("1", "3.2"); each one's share is the line in its StepResult::profile. Empty for
    // one launch.
    std::vector<std::string> steps;
};

// The lanes of one warp at one execution of one memory instruction, for the picture.
struct LaneAccess {
    bool active = false;
    std::uint64_t address = 0; // global: the device address; shared: the offset
    std::uint32_t bytes = 0;
};

struct AccessSample {
    enum class Space { Global, Shared, Local };
    Space space = Space::Global;
    bool store = false;
    bool atomic = false;     // atom/red (store is then false)
    std::string instruction; // the PTX instruction as written
    LaneAccess lanes[32];
};

// Which line and warp to record lane by lane.
struct AccessCaptureRequest {
    std::string file; // empty: the kernel's main file
    int line = 0;
    Dim3 block;                   // the block that holds the warp
    std::uint32_t warp = 0;       // warp index within the block
    std::uint32_t maxSamples = 8; // executions of the line to keep (loops run it often)
};

struct KernelProfile {
    ProfileCounters totals;
    ProfileExtras totalExtras;
    std::vector<LineProfile> lines;    // lines with at least one instruction, in file/line order
    std::vector<AccessSample> samples; // for the capture request, when there was one

    // Adds `other`'s counters (another run, another kernel of the same source), line by
    // line; its lines are noted as run by `step` when one is named.
    void add(const KernelProfile& other, const std::string& step = {});
};

struct ProfileRequest {
    bool enabled = false;
    std::optional<AccessCaptureRequest> capture;
};

} // namespace kw
