#pragma once
// Kernel durations as the GPU itself stamps them: CUPTI's activity records of kind
// KERNEL (start and end in GPU time, 0.4 to 1.6 µs above Nsight Compute's
// gpu__time_duration). They stand in where CuptiRangeTimes may not profile. Not
// CONCURRENT_KERNEL: CUPTI instruments the kernel's code to trace concurrent kernels,
// which made memory-bound kernels up to 11 % slower; KERNEL serialises launches instead,
// and the timed runs are serial anyway. Without libcupti the kernels are timed with CUDA
// events instead.
#include <string>
#include <vector>

namespace kw::cuda {

class CuptiKernelTimes {
public:
    // The one instance (CUPTI's buffer callbacks are process-wide), or null when CUPTI
    // cannot be loaded or KWB_CUPTI=0; unavailableReason() says why.
    static CuptiKernelTimes* get();
    static std::string unavailableReason();

    // Starts collecting kernel records; false (with lastError()) when CUPTI refuses,
    // e.g. under a profiler that holds it.
    bool begin();
    // Stops, flushes, and returns the durations (ms) of the kernels launched since
    // begin(), in the order they started on the GPU.
    std::vector<double> end();
    const std::string& lastError() const noexcept { return error_; }

    struct Api; // the library's entry points, known only inside
    explicit CuptiKernelTimes(const Api* api)
        : api_(api)
    {
    }

private:
    const Api* api_;
    std::string error_;
};

} // namespace kw::cuda
