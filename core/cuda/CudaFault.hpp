#pragma once
// Maps the CUresult of a kernel launch or sync onto a structured fault.
#include "launch/LaunchTypes.hpp"

#include <cuda.h>

#include <optional>
#include <string>

namespace kw::cuda {

class CudaFault {
public:
    // The fault for `result`, or nullopt when it is not a kernel fault (CUDA_SUCCESS
    // or a machinery error). CUDA has no separate code for __trap(): it reports
    // CUDA_ERROR_LAUNCH_FAILED, so that is called a trap when the module's PTX
    // contains a trap instruction. `kernel` names the kernel in the message.
    static std::optional<Fault> fromResult(CUresult result, const std::string& errorName, const std::string& errorText,
                                           const std::string& kernel, bool moduleHasTrap);
    static Fault timeout(const std::string& kernel, double limitSeconds);
    // Whether the context is unusable afterwards (every later call fails).
    static bool isSticky(CUresult result);
    // Whether the PTX text contains a trap instruction (from __trap()).
    static bool ptxHasTrap(const std::string& ptx);
};

} // namespace kw::cuda
