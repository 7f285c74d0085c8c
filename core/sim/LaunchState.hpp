#pragma once
// What all workers of one simulated launch share: memory, parameters, the first fault.
#include "launch/LaunchTypes.hpp"
#include "sim/MemoryMap.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/PtxModule.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kw::sim {

class CheckFindings;

struct LaunchState {
    const Module* mod = nullptr;
    const Function* fn = nullptr;
    MemoryMap mem;
    std::vector<std::uint8_t> params;
    Dim3 grid, block;
    std::uint32_t sharedSize = 0;     // static + dynamic (+ the reserved window) bytes per block
    std::uint32_t reservedShared = 0; // where the reserved window starts, when the module has one
    std::uint32_t dynShared = 0;
    bool raceCheck = false;
    CheckTool check = CheckTool::None; // the check asked for (SimChecks.hpp)
    CheckFindings* findings = nullptr; // where the workers' findings are merged while it runs
    // Told of each distinct finding as a check makes it, on the thread that runs the
    // block (a debugger stops there); empty for a plain run.
    std::function<void(const CheckFinding&)> onFinding;
    bool profile = false;                 // count per instruction (sim/ProfileCollector)
    std::optional<CaptureTarget> capture; // ... and record this warp's lanes
    double timeLimitSeconds = 10.0;
    std::uint32_t smCount = 1; // %nsmid: the multiprocessors the device reports
    std::chrono::steady_clock::time_point deadline;
    std::atomic<bool> stop{false};
    std::size_t printfBufferBytes = std::size_t(1) << 20;
    std::atomic<std::uint64_t> printfBytes{0}; // printf output of this launch so far
    std::atomic<bool> printfTruncated{false};

    std::mutex mu;
    std::optional<Fault> fault;
    std::vector<std::string> warnings;
    std::set<std::string> warned;

    void recordFault(Fault f)
    {
        std::lock_guard lock(mu);
        if (!fault)
            fault = std::move(f);
        stop.store(true, std::memory_order_relaxed);
    }
    // True the first time a key is seen in this launch (to report a problem once).
    bool firstTime(const std::string& key)
    {
        std::lock_guard lock(mu);
        return warned.insert("key:" + key).second;
    }
    void warn(const std::string& w)
    {
        std::lock_guard lock(mu);
        if (warnings.size() < 50 && warned.insert(w).second)
            warnings.push_back(w);
    }
};

} // namespace kw::sim
