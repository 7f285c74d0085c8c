#include "cuda/CudaFault.hpp"

#include <fmt/format.h>

#include <regex>

namespace kw::cuda {

std::optional<Fault> CudaFault::fromResult(CUresult result, const std::string& errorName, const std::string& errorText,
                                           const std::string& kernel, bool moduleHasTrap)
{
    FaultKind kind;
    switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS: kind = FaultKind::IllegalAddress; break;
    case CUDA_ERROR_MISALIGNED_ADDRESS: kind = FaultKind::MisalignedAddress; break;
    case CUDA_ERROR_ASSERT: kind = FaultKind::Assert; break;
    case CUDA_ERROR_LAUNCH_TIMEOUT: kind = FaultKind::Timeout; break;
    case CUDA_ERROR_LAUNCH_FAILED: kind = moduleHasTrap ? FaultKind::Trap : FaultKind::LaunchFailure; break;
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: kind = FaultKind::LaunchFailure; break;
    default: return std::nullopt;
    }
    Fault f;
    f.kind = kind;
    f.message = fmt::format("kernel {} faulted: {} ({}): {}", kernel, toString(kind), errorName, errorText);
    return f;
}

Fault CudaFault::timeout(const std::string& kernel, double limitSeconds)
{
    Fault f;
    f.kind = FaultKind::Timeout;
    f.message = fmt::format("kernel {} did not finish within the time limit of {} s", kernel, limitSeconds);
    return f;
}

bool CudaFault::isSticky(CUresult result)
{
    switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_INVALID_PC: return true;
    default: return false;
    }
}

bool CudaFault::ptxHasTrap(const std::string& ptx)
{
    static const std::regex trap(R"((^|[\s;{}])trap\s*;)");
    return std::regex_search(ptx, trap);
}

} // namespace kw::cuda
