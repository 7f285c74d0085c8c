#pragma once
// The `sim` backend: runs kernels on the CPU by interpreting NVRTC's PTX. Warps of 32
// lanes run in lock step; blocks are spread over all cores. Every access is checked
// against the allocations, so faults name the thread, instruction, address and line.
#include "launch/Backend.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kw {

namespace sim {
struct Module;
}

class SimBackend : public Backend {
public:
    SimBackend();
    ~SimBackend() override;

    DeviceInfo device() const override;
    // NVRTC 13's oldest virtual architecture: the simulator implements sm_75 PTX.
    std::string compileArch() const override { return "compute_75"; }
    LaunchReport launch(const KernelImage& kernel, std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;
    std::unique_ptr<ResidentBuffers> residentBuffers() override;
    // usable(), stillRunning(), canUsePrintfBuffer(): Backend's defaults are the
    // simulator's answers.

    // Report shared-memory races (two threads of a block touching one word between
    // barriers, one of them writing) as warnings. Off by default: it slows runs down.
    // LaunchConfig::check (memcheck, racecheck, initcheck, synccheck) reports the
    // simulator's checks as findings instead (sim/SimChecks.hpp, docs/checks.md).
    void setRaceCheck(bool on) { raceCheck_ = on; }
    bool raceCheck() const { return raceCheck_; }
    // Host threads to spread blocks over; 0 uses every core.
    void setThreads(unsigned n) { threads_ = n; }
    // Upper bound for the time spent on warm-up and timed repeats after the first launch.
    void setRepeatBudgetSeconds(double s) { repeatBudgetSeconds_ = s; }

private:
    friend class SimResidentBuffers; // reads the module's variables

    bool raceCheck_ = false;
    unsigned threads_ = 0;
    double repeatBudgetSeconds_ = 2.0;
    std::mutex cacheMutex_;
    std::string cachedPtx_;
    std::shared_ptr<const sim::Module> cachedModule_;

    std::shared_ptr<const sim::Module> module(const std::string& ptx, double& parseMs);
    // launch(), with each buffer's shadow of written bytes for initcheck (LaunchSettings::written).
    LaunchReport launch(const KernelImage& kernel, std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config, std::vector<std::uint8_t*> written);
    unsigned threadCount() const;
};

} // namespace kw
