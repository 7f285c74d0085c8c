#pragma once
// The CUDA driver API loaded at run time: libcuda.so.1 / nvcuda.dll is opened on
// first use and every entry point is fetched through cuGetProcAddress with the ABI
// version the typedef below was written for, so no link-time CUDA dependency exists
// and a newer driver never hands back an entry point with a different signature.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace kw::cuda {

// X(name, versioned typedef suffix, ABI version passed to cuGetProcAddress)
#define KW_CUDA_DRIVER_FUNCTIONS(X)                                                                                    \
    X(cuInit, v2000, 2000)                                                                                             \
    X(cuDriverGetVersion, v2020, 2020)                                                                                 \
    X(cuGetErrorName, v6000, 6000)                                                                                     \
    X(cuGetErrorString, v6000, 6000)                                                                                   \
    X(cuDeviceGetCount, v2000, 2000)                                                                                   \
    X(cuDeviceGet, v2000, 2000)                                                                                        \
    X(cuDeviceGetName, v2000, 2000)                                                                                    \
    X(cuDeviceTotalMem, v3020, 3020)                                                                                   \
    X(cuDeviceGetAttribute, v2000, 2000)                                                                               \
    X(cuDevicePrimaryCtxRetain, v7000, 7000)                                                                           \
    X(cuDevicePrimaryCtxRelease, v11000, 11000)                                                                        \
    X(cuCtxSetCurrent, v4000, 4000)                                                                                    \
    X(cuCtxSynchronize, v2000, 2000)                                                                                   \
    X(cuCtxSetLimit, v3010, 3010)                                                                                      \
    X(cuCtxGetLimit, v3010, 3010)                                                                                      \
    X(cuModuleLoadData, v2000, 2000)                                                                                   \
    X(cuModuleUnload, v2000, 2000)                                                                                     \
    X(cuModuleGetFunction, v2000, 2000)                                                                                \
    X(cuModuleGetGlobal, v3020, 3020)                                                                                  \
    X(cuFuncGetAttribute, v2020, 2020)                                                                                 \
    X(cuFuncSetAttribute, v9000, 9000)                                                                                 \
    X(cuMemAlloc, v3020, 3020)                                                                                         \
    X(cuMemFree, v3020, 3020)                                                                                          \
    X(cuMemAllocHost, v3020, 3020)                                                                                     \
    X(cuMemFreeHost, v2000, 2000)                                                                                      \
    X(cuMemcpyHtoDAsync, v3020, 3020)                                                                                  \
    X(cuMemcpyDtoHAsync, v3020, 3020)                                                                                  \
    X(cuMemcpyDtoDAsync, v3020, 3020)                                                                                  \
    X(cuLaunchKernel, v4000, 4000)                                                                                     \
    X(cuEventCreate, v2000, 2000)                                                                                      \
    X(cuEventDestroy, v4000, 4000)                                                                                     \
    X(cuEventRecord, v2000, 2000)                                                                                      \
    X(cuEventQuery, v2000, 2000)                                                                                       \
    X(cuEventSynchronize, v2000, 2000)                                                                                 \
    X(cuEventElapsedTime, v2000, 2000)                                                                                 \
    X(cuStreamCreate, v2000, 2000)                                                                                     \
    X(cuStreamDestroy, v4000, 4000)                                                                                    \
    X(cuStreamSynchronize, v2000, 2000)

// Entry points that older drivers lack; null when missing.
// The graph entry points replay a straight loop of a document of steps (CudaGraphPass);
// the memset flushes the L2 cache between timed runs, the bus id finds the GPU in NVML,
// and host registration is what tests/bench/bench_transfer weighs against the staging ring.
#define KW_CUDA_OPTIONAL_FUNCTIONS(X)                                                                                  \
    X(cuFuncGetParamInfo, v12040, 12040)                                                                               \
    X(cuGraphCreate, v10000, 10000)                                                                                    \
    X(cuGraphDestroy, v10000, 10000)                                                                                   \
    X(cuGraphAddKernelNode, v10000, 10000)                                                                             \
    X(cuGraphAddMemcpyNode, v10000, 10000)                                                                             \
    X(cuGraphAddMemsetNode, v10000, 10000)                                                                             \
    X(cuGraphInstantiateWithFlags, v11040, 11040)                                                                      \
    X(cuGraphExecDestroy, v10000, 10000)                                                                               \
    X(cuGraphExecKernelNodeSetParams, v10010, 10010)                                                                   \
    X(cuGraphLaunch, v10000, 10000)                                                                                    \
    X(cuMemsetD8Async, v3020, 3020)                                                                                    \
    X(cuDeviceGetPCIBusId, v4010, 4010)                                                                                \
    X(cuMemHostRegister, v6050, 6050)                                                                                  \
    X(cuMemHostUnregister, v4000, 4000)

class DriverApi {
public:
#define KW_DECLARE_PFN(name, suffix, version) PFN_##name##_##suffix name = nullptr;
    KW_CUDA_DRIVER_FUNCTIONS(KW_DECLARE_PFN)
    KW_CUDA_OPTIONAL_FUNCTIONS(KW_DECLARE_PFN)
#undef KW_DECLARE_PFN

    // Loads and initialises the driver once (cuInit). Throws kw::Error(NoDevice)
    // with a one-line message when there is no driver or it does not initialise.
    static const DriverApi& get();
    // True when get() would succeed; never throws.
    static bool available();
    // Why the driver is unavailable ("" when it is available).
    static std::string unavailableReason();

    int driverVersion() const noexcept { return driverVersion_; } // e.g. 13000
    // Every graph entry point is there.
    bool hasGraphs() const noexcept
    {
        return cuGraphCreate && cuGraphDestroy && cuGraphAddKernelNode && cuGraphAddMemcpyNode && cuGraphAddMemsetNode
            && cuGraphInstantiateWithFlags && cuGraphExecDestroy && cuGraphExecKernelNodeSetParams && cuGraphLaunch;
    }
    const std::string& libraryName() const noexcept { return libraryName_; }

    // "CUDA_ERROR_ILLEGAL_ADDRESS"; works for codes the driver does not know.
    std::string errorName(CUresult result) const;
    std::string errorString(CUresult result) const;
    // Throws kw::Error(Driver) naming the call, the CUresult and the object
    // when result != CUDA_SUCCESS.
    void check(CUresult result, const char* call, const std::string& object = {}) const;

private:
    friend class DriverLoader;
    DriverApi() = default;
    int driverVersion_ = 0;
    std::string libraryName_;
};

} // namespace kw::cuda
