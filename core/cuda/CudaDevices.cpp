#include "cuda/CudaDevices.hpp"

#include "cuda/DriverApi.hpp"
#include "util/Error.hpp"

#include <string>

namespace kw::cuda {

int CudaDevices::count() noexcept
{
    if (!DriverApi::available())
        return 0;
    int n = 0;
    if (DriverApi::get().cuDeviceGetCount(&n) != CUDA_SUCCESS)
        return 0;
    return n;
}

DeviceInfo CudaDevices::query(int ordinal)
{
    const auto& api = DriverApi::get();
    const int n = count();
    if (ordinal < 0 || ordinal >= n)
        throw Error(ErrorCategory::Usage,
                    "device cuda:" + std::to_string(ordinal) + " does not exist (" + std::to_string(n)
                        + " GPU(s) present)");
    const std::string label = "device cuda:" + std::to_string(ordinal);
    CUdevice dev = 0;
    api.check(api.cuDeviceGet(&dev, ordinal), "cuDeviceGet", label);
    auto attr = [&](CUdevice_attribute a) {
        int v = 0;
        api.check(api.cuDeviceGetAttribute(&v, a, dev), "cuDeviceGetAttribute",
                  label + ", attribute " + std::to_string(int(a)));
        return v;
    };
    // Attributes a driver may not report return 0 instead of failing the whole query.
    auto optionalAttr = [&](CUdevice_attribute a) {
        int v = 0;
        return api.cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? v : 0;
    };

    DeviceInfo info;
    info.id = "cuda:" + std::to_string(ordinal);
    char name[256] = {};
    api.check(api.cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName", label);
    info.name = name;
    info.ccMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info.ccMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    api.check(api.cuDeviceTotalMem(&info.totalMemory, dev), "cuDeviceTotalMem", label);

    DeviceLimits& l = info.limits;
    l.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l.maxBlock = {std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                  std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                  std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
    l.maxGrid = {std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
                 std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
                 std::uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
    l.sharedPerBlock = std::size_t(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    const int optin = optionalAttr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    l.sharedPerBlockOptin = optin > 0 ? std::size_t(optin) : l.sharedPerBlock;
    l.warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    l.maxRegistersPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    l.multiprocessors = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    l.maxThreadsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);

    // Peak bandwidth = 2 (double data rate) x memory clock x bus width.
    const int memClockKHz = optionalAttr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    const int busBits = optionalAttr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    if (memClockKHz > 0 && busBits > 0)
        info.memoryBandwidthGBs = 2.0 * memClockKHz * 1e3 * (busBits / 8.0) / 1e9;
    return info;
}

std::vector<DeviceInfo> CudaDevices::list()
{
    std::vector<DeviceInfo> out;
    const int n = count();
    for (int i = 0; i < n; ++i)
        out.push_back(query(i));
    return out;
}

std::string CudaDevices::cubinArch(const DeviceInfo& device)
{
    return "sm_" + std::to_string(device.ccMajor) + std::to_string(device.ccMinor);
}

} // namespace kw::cuda
