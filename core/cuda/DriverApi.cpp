#include "cuda/DriverApi.hpp"

#include "util/DynamicLibrary.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <memory>
#include <mutex>
#include <vector>

namespace kw::cuda {

namespace {

std::vector<std::string> driverLibraryNames()
{
#ifdef _WIN32
    return {"nvcuda.dll"};
#else
    return {"libcuda.so.1", "libcuda.so"};
#endif
}

struct LoadedDriver {
    DynamicLibrary library;
    std::unique_ptr<DriverApi> api;
    std::string failure;
};

// Fetches one entry point at an explicit ABI version through whichever
// cuGetProcAddress the driver offers (the 5-argument _v2 since CUDA 12).
class ProcResolver {
public:
    explicit ProcResolver(const DynamicLibrary& lib)
    {
        v2_ = reinterpret_cast<PFN_cuGetProcAddress_v12000>(lib.symbol("cuGetProcAddress_v2"));
        if (!v2_)
            v1_ = reinterpret_cast<PFN_cuGetProcAddress_v11030>(lib.symbol("cuGetProcAddress"));
    }
    bool usable() const { return v2_ || v1_; }

    void* resolve(const char* name, int version) const
    {
        void* fn = nullptr;
        CUresult r;
        if (v2_) {
            CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
            r = v2_(name, &fn, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status);
            if (status != CU_GET_PROC_ADDRESS_SUCCESS)
                return nullptr;
        } else {
            r = v1_(name, &fn, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
        }
        return r == CUDA_SUCCESS ? fn : nullptr;
    }

private:
    PFN_cuGetProcAddress_v12000 v2_ = nullptr;
    PFN_cuGetProcAddress_v11030 v1_ = nullptr;
};

} // namespace

class DriverLoader {
public:
    static DriverApi* create() { return new DriverApi; }
    static void setVersion(DriverApi& a, int v, std::string lib)
    {
        a.driverVersion_ = v;
        a.libraryName_ = std::move(lib);
    }
};

namespace {

LoadedDriver& loadedDriver()
{
    static LoadedDriver driver;
    static std::once_flag once;
    std::call_once(once, [] {
        std::vector<std::string> tried;
        driver.library = DynamicLibrary::openFirst(driverLibraryNames(), &tried);
        if (!driver.library.isLoaded()) {
            driver.failure = "no NVIDIA driver found (" + driverLibraryNames().front() + " could not be loaded)";
            return;
        }
        ProcResolver resolver(driver.library);
        if (!resolver.usable()) {
            driver.failure = "the NVIDIA driver in " + driver.library.name()
                + " is too old (no cuGetProcAddress; CUDA 11.3 or newer is needed)";
            return;
        }
        std::unique_ptr<DriverApi> api(DriverLoader::create());
        std::string missing;
#define KW_RESOLVE(name, suffix, version)                                                                              \
    api->name = reinterpret_cast<PFN_##name##_##suffix>(resolver.resolve(#name, version));                             \
    if (!api->name)                                                                                                    \
        missing += (missing.empty() ? "" : ", ") + std::string(#name);
        KW_CUDA_DRIVER_FUNCTIONS(KW_RESOLVE)
#undef KW_RESOLVE
#define KW_RESOLVE_OPTIONAL(name, suffix, version)                                                                     \
    api->name = reinterpret_cast<PFN_##name##_##suffix>(resolver.resolve(#name, version));
        KW_CUDA_OPTIONAL_FUNCTIONS(KW_RESOLVE_OPTIONAL)
#undef KW_RESOLVE_OPTIONAL
        if (!missing.empty()) {
            driver.failure = "the NVIDIA driver in " + driver.library.name() + " lacks entry points: " + missing;
            return;
        }
        CUresult r = api->cuInit(0);
        if (r != CUDA_SUCCESS) {
            driver.failure = fmt::format("the NVIDIA driver did not initialise: cuInit returned {} ({})",
                                         api->errorName(r), api->errorString(r));
            return;
        }
        int version = 0;
        api->cuDriverGetVersion(&version);
        DriverLoader::setVersion(*api, version, driver.library.name());
        driver.api = std::move(api);
    });
    return driver;
}

} // namespace

const DriverApi& DriverApi::get()
{
    LoadedDriver& d = loadedDriver();
    if (!d.api)
        throw Error(ErrorCategory::NoDevice, d.failure);
    return *d.api;
}

bool DriverApi::available() { return loadedDriver().api != nullptr; }

std::string DriverApi::unavailableReason() { return loadedDriver().failure; }

std::string DriverApi::errorName(CUresult result) const
{
    const char* s = nullptr;
    if (cuGetErrorName && cuGetErrorName(result, &s) == CUDA_SUCCESS && s)
        return s;
    return "CUresult " + std::to_string(static_cast<int>(result));
}

std::string DriverApi::errorString(CUresult result) const
{
    const char* s = nullptr;
    if (cuGetErrorString && cuGetErrorString(result, &s) == CUDA_SUCCESS && s)
        return s;
    return "unknown error";
}

void DriverApi::check(CUresult result, const char* call, const std::string& object) const
{
    if (result == CUDA_SUCCESS)
        return;
    std::string msg = fmt::format("{} failed: {} ({})", call, errorName(result), errorString(result));
    if (!object.empty())
        msg += " [" + object + "]";
    throw Error(ErrorCategory::Driver, msg);
}

} // namespace kw::cuda
