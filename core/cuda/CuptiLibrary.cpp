#include "cuda/CuptiLibrary.hpp"

#include "util/DynamicLibrary.hpp"

#include <cupti_result.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace kw::cuda {

namespace {

std::vector<std::string> libraryNames()
{
    std::vector<std::string> names{"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* home = std::getenv(var); home && *home) {
            names.push_back(std::string(home) + "/lib64/libcupti.so");
            names.push_back(std::string(home) + "/extras/CUPTI/lib64/libcupti.so");
        }
    names.push_back("/usr/local/cuda/lib64/libcupti.so");
    names.push_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
    return names;
}

struct Opened {
    DynamicLibrary library;
    std::string reason;
};

// Never closed: CUPTI keeps threads and callbacks until the process ends, and closing it
// among the other statics at exit crashed the process there.
const Opened& opened()
{
    static Opened* o = new Opened;
    static std::once_flag once;
    std::call_once(once, [] {
        if (const char* off = std::getenv("KWB_CUPTI"); off && std::strcmp(off, "0") == 0) {
            o->reason = "KWB_CUPTI=0";
            return;
        }
        o->library = DynamicLibrary::openFirst(libraryNames());
        if (!o->library.isLoaded())
            o->reason = "libcupti not found";
    });
    return *o;
}

} // namespace

const DynamicLibrary* CuptiLibrary::get()
{
    const Opened& o = opened();
    return o.library.isLoaded() ? &o.library : nullptr;
}

const std::string& CuptiLibrary::reason() { return opened().reason; }

std::string CuptiLibrary::resultText(int result)
{
    const DynamicLibrary* lib = get();
    const auto fn
        = lib ? reinterpret_cast<decltype(&cuptiGetResultString)>(lib->symbol("cuptiGetResultString")) : nullptr;
    const char* s = nullptr;
    if (fn && fn(CUptiResult(result), &s) == CUPTI_SUCCESS && s)
        return s;
    return "CUPTI error " + std::to_string(result);
}

} // namespace kw::cuda
