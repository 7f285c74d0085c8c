#pragma once
// One launch on the simulator that can be run again from its start, exactly as before:
// the buffers go back to their initial bytes (in place, so what points at them stays
// valid), the module variables to their initial values, and the blocks run one after
// another on this thread (LaunchRun::advance), so every run is the same run.
#include "debug/SharedWriters.hpp"
#include "launch/LaunchTypes.hpp"
#include "sim/LaunchRun.hpp"
#include "sim/LaunchSetup.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kw::debug {

// The launch's memory when a block began: every writable region's bytes (buffers and
// module variables), and the block runner's registers and local memory as the block
// before left them (a thread that reads before it writes reads those, in every run),
// enough to run the grid on from that block exactly as the first run did.
struct Checkpoint {
    std::uint64_t block = 0;
    std::uint64_t position = 0;
    std::vector<std::vector<std::uint8_t>> regions; // in the memory map's order
    std::vector<std::uint64_t> registers;           // warp after warp, as Warp::R holds them
    std::vector<std::uint8_t> local;                // warp after warp
    std::vector<sim::BlockPrintf> output;           // device printf output of the blocks before
    std::uint64_t printfBytes = 0;                  // what the launch's printf buffer had taken (LaunchState)
    bool printfTruncated = false;
    std::size_t bytes() const;
};

class DebugLaunch {
public:
    DebugLaunch(std::shared_ptr<const sim::Module> module, const sim::Function& fn, std::string kernelName,
                std::vector<BufferArg> buffers, std::vector<LaunchArg> args, LaunchConfig config);
    ~DebugLaunch();
    DebugLaunch(const DebugLaunch&) = delete;
    DebugLaunch& operator=(const DebugLaunch&) = delete;

    // A fresh execution from the launch's start, or from a checkpoint of an earlier
    // execution; its block runner exists from here on.
    void restart(const Checkpoint* from = nullptr);
    // The memory now, as block `block` begins at `position`.
    Checkpoint checkpoint(std::uint64_t block, std::uint64_t position);
    sim::LaunchStatus advance(const sim::Budget& budget = {});
    // The runner of the blocks, the block under way and its warps.
    sim::BlockRunner& runner() { return run_->makeStepper(); }
    const sim::BlockRunner& runner() const { return *const_cast<sim::LaunchRun&>(*run_).stepper(); }
    // Warp-level instructions executed since the launch began.
    std::uint64_t position() const;
    // The position of the runner's first instruction (a checkpoint's, or 0).
    std::uint64_t base() const { return base_; }
    sim::LaunchState& state() { return setup_->state(); }
    const sim::Module& module() const { return *module_; }
    const sim::Function& function() const { return fn_; }
    const std::vector<BufferArg>& buffers() const { return buffers_; }
    const LaunchConfig& config() const { return config_; }
    std::uint64_t blocks() const { return config_.grid.volume(); }
    // Told of each distinct finding of the check asked for, as it is made (every run).
    void onFinding(std::function<void(const CheckFinding&)> f) { onFinding_ = std::move(f); }
    // The findings of the check asked for (LaunchConfig::check), of the blocks run so far.
    std::vector<CheckFinding> findings();
    const std::vector<std::string>& warnings() const { return warnings_; }
    // Who last wrote each word of the block's shared memory, in this run.
    const SharedWriters& sharedWriters() const { return *writers_; }

private:
    std::shared_ptr<const sim::Module> module_;
    const sim::Function& fn_;
    std::string kernelName_;
    std::vector<BufferArg> buffers_;
    std::vector<HostBytes> initial_;
    std::vector<LaunchArg> args_;
    LaunchConfig config_;
    std::vector<std::string> warnings_;
    std::unique_ptr<sim::LaunchSetup> setup_;
    std::unique_ptr<sim::LaunchRun> run_;
    std::uint64_t base_ = 0; // the position the runner's first instruction has
    std::function<void(const CheckFinding&)> onFinding_;
    std::unique_ptr<SharedWriters> writers_; // attached to each run's runner
};

} // namespace kw::debug
