#pragma once
// One launch of a kernel on the simulator, set up once: the settings (LaunchState), the
// module variables' storage, the buffers mapped where they lie and the parameters
// written. Its grid then runs as often as wanted (LaunchRun): the first run with the
// profile and check asked for, timed repeats after restoreInputs().
#include "launch/LaunchTypes.hpp"
#include "sim/LaunchState.hpp"
#include "sim/SimChecks.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kw::sim {

struct Function;
struct Module;

struct LaunchSettings {
    std::string kernelName;    // as the user names the kernel, for messages
    bool raceCheck = false;    // shared-memory races as warnings (SimBackend::setRaceCheck)
    std::uint32_t smCount = 1; // %nsmid
    // initcheck across launches: per buffer, 1 for each byte that holds data (null: all do);
    // empty: every buffer's bytes do (sim/SimResidentBuffers).
    std::vector<std::uint8_t*> written;
};

class LaunchSetup {
public:
    // Throws kw::Error for arguments that do not fit the kernel; capture problems become `warnings`.
    LaunchSetup(std::shared_ptr<const Module> mod, const Function& fn, std::vector<BufferArg>& buffers,
                const std::vector<LaunchArg>& args, const LaunchConfig& config, const LaunchSettings& settings,
                std::vector<std::string>& warnings);
    LaunchSetup(const LaunchSetup&) = delete;
    LaunchSetup& operator=(const LaunchSetup&) = delete;

    LaunchState& state() { return L_; }
    const Module& module() const { return *mod_; }
    CheckFindings& findings() { return findings_; }
    // From here on the grid runs as the timed repeats do: no profile, no check.
    void plainFromNowOn();
    // The module variables back to their initial values (those a buffer fills are restored with the buffers).
    void restoreVariables();

private:
    std::shared_ptr<const Module> mod_;
    bool raceCheck_ = false;
    LaunchState L_;
    CheckFindings findings_;
    std::vector<BufferArg*> bound_;                  // per module variable: the buffer that fills it, or null
    std::vector<std::vector<std::uint8_t>> storage_; // the other variables' bytes

    void mapMemory(std::vector<BufferArg>& buffers, std::vector<std::uint64_t>& bufferAddress);
    void writeParams(const Function& fn, const std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args,
                     const std::vector<std::uint64_t>& bufferAddress);
};

} // namespace kw::sim
