#pragma once
// Kernel durations by Nsight Compute's own measure: the metric gpu__time_duration.sum,
// read through CUPTI's range profiler with one range per launch (auto ranges). The
// activity records' start and end (CuptiKernelTimes) sit a fixed 0.4 to 1.6 µs above it,
// 1 % of a 100 µs kernel; this is the figure a user holds beside Nsight Compute's.
// Profiling needs the GPU's performance counters, which a driver may keep for
// administrators (NVreg_RestrictProfilingToAdminUsers): begin() then fails and says so,
// and the caller falls back to the activity records.
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kw::cuda {

class CuptiRangeTimes {
public:
    // The one instance (CUPTI's profiler is process-wide), or null when libcupti lacks
    // the range profiler, KWB_CUPTI=0 or KWB_CUPTI=activity; unavailableReason() says why.
    static CuptiRangeTimes* get();
    static std::string unavailableReason();

    // Profiles every kernel launched in `context` (on device ordinal `device`) from now
    // on, up to `launches` of them; false with lastError() when CUPTI refuses (no
    // permission to the counters, a profiler already attached, a metric needing replay).
    bool begin(CUcontext context, int device, std::size_t launches);
    // Stops and returns the durations (ms) of the launches profiled since begin(), in
    // launch order (CUPTI names auto ranges by number, not by kernel); empty with
    // lastError() when they could not be read.
    std::vector<double> end();
    const std::string& lastError() const noexcept { return error_; }

    struct Api; // the library's entry points, known only inside
    explicit CuptiRangeTimes(const Api* api);
    ~CuptiRangeTimes();

private:
    bool prepare(CUcontext context, int device);
    void disable();

    const Api* api_;
    std::string error_;
    bool initialized_ = false;
    int preparedDevice_ = -1;
    struct HostObject; // the metric's evaluator for the device's chip
    std::unique_ptr<HostObject> host_;
    std::vector<std::uint8_t> availability_; // the counters free on it
    std::vector<std::uint8_t> config_;       // which counters to collect, for that chip
    std::vector<std::uint8_t> counterData_;
    void* profiler_ = nullptr; // the enabled range profiler between begin() and end()
};

} // namespace kw::cuda
