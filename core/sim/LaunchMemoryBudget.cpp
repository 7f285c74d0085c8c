#include "sim/LaunchMemoryBudget.hpp"

#include "sim/PtxModule.hpp"
#include "util/Error.hpp"
#include "util/SystemMemory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace kw::sim {

namespace {

// a * b, saturated: the sizes come from a hostile module and must not wrap.
std::uint64_t times(std::uint64_t a, std::uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

std::uint64_t plus(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", double(bytes) / double(1ULL << 30)); }

} // namespace

std::uint64_t LaunchMemory::total() const
{
    return plus(plus(plus(plus(registers, local), shared), variables), printf);
}

LaunchMemory LaunchMemoryBudget::of(const Module& mod, const Function& fn, Dim3 block, std::uint32_t sharedBytes,
                                    std::uint64_t printfBytes, unsigned workers)
{
    const std::uint64_t threads = times(times(block.x, block.y), block.z);
    const std::uint64_t lanes = times((threads + 31) / 32, 32); // whole warps hold registers
    LaunchMemory m;
    // Each worker runs one block at a time (BlockRunner: 8-byte registers per lane).
    m.registers = times(times(times(lanes, fn.numRegs), sizeof(std::uint64_t)), workers);
    m.local = times(times(lanes, fn.localBytes), workers);
    m.shared = times(std::uint64_t(std::max(sharedBytes, mod.staticShared)), workers);
    for (const GlobalVar& g : mod.globals)
        if (g.space != Space::Shared)
            m.variables = plus(m.variables, times(g.size, 2)); // the module's bytes and the launch's copy
    m.printf = printfBytes;
    return m;
}

void LaunchMemoryBudget::check(const LaunchMemory& need, std::uint64_t limit)
{
    if (need.total() <= limit)
        return;
    const std::pair<std::uint64_t, const char*> parts[] = {
        {need.registers, "registers (declared registers x threads of a block x worker threads)"},
        {need.local, "local memory (per-thread frame x threads of a block x worker threads)"},
        {need.shared, "shared memory (per block x worker threads)"},
        {need.variables, "the module's global and constant variables"},
        {need.printf, "the printf buffer"},
    };
    const auto biggest = *std::max_element(std::begin(parts), std::end(parts),
                                           [](const auto& a, const auto& b) { return a.first < b.first; });
    throw Error(ErrorCategory::Limit,
                fmt::format("the simulator would need {} of memory for this launch, more than the {} it may use "
                            "(half of this machine's); the biggest part is {}: {}",
                            gib(need.total()), gib(limit), biggest.second, gib(biggest.first)));
}

std::uint64_t LaunchMemoryBudget::defaultLimit() { return std::uint64_t(physicalMemoryBytes() / 2); }

} // namespace kw::sim
