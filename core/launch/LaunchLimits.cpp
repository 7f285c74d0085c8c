#include "launch/LaunchLimits.hpp"

#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw {

namespace {

const char* kAxis[3] = {"x", "y", "z"};

std::uint32_t component(const Dim3& d, int axis) { return axis == 0 ? d.x : axis == 1 ? d.y : d.z; }

} // namespace

std::optional<std::string> checkDimension(LimitViolation::Field field, int axis, std::int64_t value,
                                          const DeviceLimits& limits)
{
    const bool grid = field == LimitViolation::Field::Grid;
    const char* what = grid ? "grid" : "block";
    if (value < 1)
        return fmt::format("{}.{} is {}; every launch dimension must be at least 1", what, kAxis[axis], value);
    const std::uint32_t max = component(grid ? limits.maxGrid : limits.maxBlock, axis);
    if (std::uint64_t(value) > max)
        return fmt::format("{}.{} = {} exceeds the device's {} limit of {}", what, kAxis[axis], value, what, max);
    return std::nullopt;
}

std::optional<std::string> checkThreadsPerBlock(const Dim3& block, const DeviceLimits& limits,
                                                const KernelLimits& kernel)
{
    const std::uint64_t threads = block.volume();
    const std::string shape = fmt::format("{}x{}x{}", block.x, block.y, block.z);
    if (threads > std::uint64_t(limits.maxThreadsPerBlock))
        return fmt::format("block {} has {} threads; the device's limit is {} threads per block", shape, threads,
                           limits.maxThreadsPerBlock);
    if (kernel.maxThreads > 0 && threads > kernel.maxThreads)
        return fmt::format("block {} has {} threads; this kernel allows at most {} threads per block (set by its "
                           "__launch_bounds__ or its {} registers per thread)",
                           shape, threads, kernel.maxThreads, kernel.registers);
    return std::nullopt;
}

std::optional<std::string> checkSharedMemory(std::int64_t dynamicBytes, const DeviceLimits& limits,
                                             const KernelLimits& kernel)
{
    if (dynamicBytes < 0)
        return fmt::format("dynamic shared memory is {} bytes; it cannot be negative", dynamicBytes);
    const std::uint64_t total = kernel.staticShared + std::uint64_t(dynamicBytes);
    if (total > limits.sharedPerBlockOptin)
        return fmt::format("shared memory {} bytes ({} static + {} dynamic) exceeds the device's limit of {} "
                           "bytes per block",
                           total, kernel.staticShared, dynamicBytes, limits.sharedPerBlockOptin);
    return std::nullopt;
}

std::vector<LimitViolation> checkLaunchLimits(const LaunchConfig& config, const DeviceLimits& limits,
                                              const KernelLimits& kernel)
{
    using Field = LimitViolation::Field;
    std::vector<LimitViolation> out;
    for (int axis = 0; axis < 3; ++axis)
        for (Field f : {Field::Block, Field::Grid})
            if (auto m
                = checkDimension(f, axis, component(f == Field::Grid ? config.grid : config.block, axis), limits))
                out.push_back({f, axis, std::move(*m)});
    if (auto m = checkThreadsPerBlock(config.block, limits, kernel))
        out.push_back({Field::Block, -1, std::move(*m)});
    if (auto m = checkSharedMemory(config.sharedBytes, limits, kernel))
        out.push_back({Field::Shared, -1, std::move(*m)});
    return out;
}

void refuseLaunch(const std::string& kernelName, const std::vector<std::string>& reasons)
{
    if (reasons.empty())
        return;
    std::string msg = "kernel " + kernelName + ": ";
    for (std::size_t i = 0; i < reasons.size(); ++i)
        msg += (i ? "; " : "") + reasons[i];
    throw Error(ErrorCategory::Limit, msg);
}

void refuseViolations(const std::string& kernelName, const std::vector<LimitViolation>& violations)
{
    std::vector<std::string> reasons;
    for (const auto& v : violations)
        reasons.push_back(v.message);
    refuseLaunch(kernelName, reasons);
}

} // namespace kw
