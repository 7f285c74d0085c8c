#pragma once
// A launch checked against a device's limits, in one wording for the backends (which
// refuse the launch with all the reasons at once) and the launch panel (which marks
// the field at fault while the user types).
#include "launch/LaunchTypes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw {

// What the loaded kernel itself allows; 0 where it is not known (the simulator).
struct KernelLimits {
    std::uint64_t maxThreads = 0;   // from __launch_bounds__ or the registers per thread
    int registers = 0;              // per thread, for the message
    std::uint64_t staticShared = 0; // bytes of __shared__ declared in the kernel
};

struct LimitViolation {
    enum class Field { Grid, Block, Shared };
    Field field = Field::Block;
    int axis = -1; // 0..2 when one dimension is at fault, -1 for all of it
    std::string message;
};

// "grid" or "block" dimension `axis` (0..2). Values arrive as typed, before they fit a Dim3.
std::optional<std::string> checkDimension(LimitViolation::Field field, int axis, std::int64_t value,
                                          const DeviceLimits& limits);
std::optional<std::string> checkThreadsPerBlock(const Dim3& block, const DeviceLimits& limits,
                                                const KernelLimits& kernel = {});
std::optional<std::string> checkSharedMemory(std::int64_t dynamicBytes, const DeviceLimits& limits,
                                             const KernelLimits& kernel = {});

// Every limit the launch breaks, in the order grid/block dimensions, threads, shared memory.
std::vector<LimitViolation> checkLaunchLimits(const LaunchConfig& config, const DeviceLimits& limits,
                                              const KernelLimits& kernel = {});
// Throws kw::Error(Limit) "kernel NAME: first; second; ..." when there is any reason.
void refuseLaunch(const std::string& kernelName, const std::vector<std::string>& reasons);
void refuseViolations(const std::string& kernelName, const std::vector<LimitViolation>& violations);

} // namespace kw
