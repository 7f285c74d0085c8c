#include "compile/NvrtcLibrary.hpp"

#include "compile/NvrtcSearchOrder.hpp"

#include "util/DynamicLibrary.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

namespace kw {

struct NvrtcLibrary::Impl {
    std::vector<DynamicLibrary> companions; // libnvrtc-builtins, kept open while NVRTC is
    DynamicLibrary lib;
    DynamicLibrary builtins; // from NVRTC's own folder, see builtinsBeside
};

namespace {

#ifdef _WIN32
// NVRTC loads nvrtc-builtins64_*.dll by name when it first compiles, and Windows
// looks for that name beside the executable and on PATH, not beside nvrtc64_*.dll.
// A module already loaded under that name is what such a lookup returns, so loading
// the builtins from NVRTC's folder first makes a KWB_NVRTC elsewhere work too.
DynamicLibrary builtinsBeside(const std::string& nvrtcPath)
{
    const std::filesystem::path dir = std::filesystem::path(nvrtcPath).parent_path();
    if (dir.empty())
        return {}; // found through the search order, as NVRTC's own lookup will be
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("nvrtc-builtins64_", 0) == 0 && entry.path().extension() == ".dll")
            found.push_back(entry.path().string());
    }
    std::sort(found.rbegin(), found.rend()); // the newest first
    return DynamicLibrary::openFirst(found);
}
#else
// NVRTC opens libnvrtc-builtins by name when it first compiles. Opened here, beside the
// library actually loaded, it is in the process before the compile worker's sandbox
// rises, and the lookup at compile time returns it without touching the file system.
DynamicLibrary builtinsBeside(const std::string& nvrtcPath, int major, int minor)
{
    const std::filesystem::path dir = std::filesystem::path(nvrtcPath).parent_path();
    if (dir.empty())
        return {};
    const std::string name = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
    return DynamicLibrary::openFirst({(dir / name).string()});
}
#endif

template <typename Fn> void bind(const DynamicLibrary& lib, Fn& fn, const char* name)
{
    fn = reinterpret_cast<Fn>(lib.symbol(name));
    if (!fn)
        throw Error(ErrorCategory::Nvrtc, std::string("NVRTC library '") + lib.name() + "' lacks " + name);
}

} // namespace

std::vector<std::string> NvrtcLibrary::candidateNames()
{
    std::vector<std::string> names;
    for (const auto& c : NvrtcSearchOrder::candidates())
        names.push_back(c.name);
    return names;
}

NvrtcLibrary::NvrtcLibrary(const std::vector<std::string>& names)
    : impl_(new Impl)
{
    std::unique_ptr<Impl> guard(impl_);
    std::vector<std::string> tried;
    for (const auto& name : names) {
        std::vector<DynamicLibrary> companions;
        for (const auto& c : NvrtcSearchOrder::companionsOf(name))
            if (auto lib = DynamicLibrary::openFirst({c}, &tried); lib.isLoaded())
                companions.push_back(std::move(lib));
        impl_->lib = DynamicLibrary::openFirst({name}, &tried);
        if (impl_->lib.isLoaded()) {
            impl_->companions = std::move(companions);
            break;
        }
    }
    if (!impl_->lib.isLoaded()) {
        std::string msg = "NVRTC could not be loaded. " + NvrtcSearchOrder::installHint() + ". Tried:";
        for (const auto& t : tried)
            msg += "\n  " + t;
        throw Error(ErrorCategory::Nvrtc, msg);
    }
    const DynamicLibrary& lib = impl_->lib;
    path_ = lib.filePath();
    origin_ = NvrtcSearchOrder::originOf(path_);
    bind(lib, getErrorString, "nvrtcGetErrorString");
    bind(lib, versionFn, "nvrtcVersion");
    bind(lib, getNumSupportedArchs, "nvrtcGetNumSupportedArchs");
    bind(lib, getSupportedArchs, "nvrtcGetSupportedArchs");
    bind(lib, createProgram, "nvrtcCreateProgram");
    bind(lib, destroyProgram, "nvrtcDestroyProgram");
    bind(lib, compileProgram, "nvrtcCompileProgram");
    bind(lib, getPTXSize, "nvrtcGetPTXSize");
    bind(lib, getPTX, "nvrtcGetPTX");
    bind(lib, getCUBINSize, "nvrtcGetCUBINSize");
    bind(lib, getCUBIN, "nvrtcGetCUBIN");
    bind(lib, getProgramLogSize, "nvrtcGetProgramLogSize");
    bind(lib, getProgramLog, "nvrtcGetProgramLog");
    bind(lib, addNameExpression, "nvrtcAddNameExpression");
    bind(lib, getLoweredName, "nvrtcGetLoweredName");
    getPCHCreateStatus = reinterpret_cast<decltype(getPCHCreateStatus)>(lib.symbol("nvrtcGetPCHCreateStatus"));
    getPCHHeapSizeRequired
        = reinterpret_cast<decltype(getPCHHeapSizeRequired)>(lib.symbol("nvrtcGetPCHHeapSizeRequired"));
    setPCHHeapSize = reinterpret_cast<decltype(setPCHHeapSize)>(lib.symbol("nvrtcSetPCHHeapSize"));

    check(versionFn(&major_, &minor_), "nvrtcVersion");
#ifdef _WIN32
    impl_->builtins = builtinsBeside(path_);
#else
    impl_->builtins = builtinsBeside(path_, major_, minor_);
#endif
    int n = 0;
    check(getNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs");
    archs_.resize(static_cast<std::size_t>(n));
    if (n > 0)
        check(getSupportedArchs(archs_.data()), "nvrtcGetSupportedArchs");
    guard.release();
}

NvrtcLibrary::~NvrtcLibrary() { delete impl_; }

std::unique_ptr<NvrtcLibrary> NvrtcLibrary::open(const std::vector<std::string>& names)
{
    return std::unique_ptr<NvrtcLibrary>(new NvrtcLibrary(names));
}

const NvrtcLibrary& NvrtcLibrary::instance()
{
    // Not a function-local static: a failed load must be retried on the next call.
    static std::mutex mutex;
    static std::unique_ptr<NvrtcLibrary> loaded;
    std::lock_guard lock(mutex);
    if (!loaded)
        loaded = open(candidateNames());
    return *loaded;
}

void NvrtcLibrary::check(nvrtcResult r, const char* what) const
{
    if (r == NVRTC_SUCCESS)
        return;
    const char* s = getErrorString ? getErrorString(r) : nullptr;
    throw Error(ErrorCategory::Nvrtc, std::string(what) + " failed: " + (s ? s : "error " + std::to_string(r)));
}

} // namespace kw
