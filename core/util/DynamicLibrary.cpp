#include "util/DynamicLibrary.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <link.h>
#endif

#include <utility>

namespace kw {

namespace {

void* openOne(const std::string& name, std::string& reason)
{
#ifdef _WIN32
    HMODULE h = LoadLibraryA(name.c_str());
    if (!h)
        reason = "LoadLibrary error " + std::to_string(GetLastError());
    return reinterpret_cast<void*>(h);
#else
    void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = dlerror();
        reason = e ? e : "dlopen failed";
    }
    return h;
#endif
}

void closeOne(void* handle)
{
    if (!handle)
        return;
#ifdef _WIN32
    FreeLibrary(reinterpret_cast<HMODULE>(handle));
#else
    dlclose(handle);
#endif
}

} // namespace

DynamicLibrary::~DynamicLibrary() { closeOne(handle_); }

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr))
    , name_(std::move(other.name_))
{
}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept
{
    if (this != &other) {
        closeOne(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        name_ = std::move(other.name_);
    }
    return *this;
}

DynamicLibrary DynamicLibrary::openFirst(const std::vector<std::string>& names, std::vector<std::string>* tried)
{
    DynamicLibrary lib;
    for (const auto& name : names) {
        std::string reason;
        if (void* h = openOne(name, reason)) {
            lib.handle_ = h;
            lib.name_ = name;
            return lib;
        }
        if (tried)
            tried->push_back(name + ": " + reason);
    }
    return lib;
}

std::string DynamicLibrary::filePath() const
{
    if (!handle_)
        return {};
#ifdef _WIN32
    char buf[4096];
    DWORD n = GetModuleFileNameA(reinterpret_cast<HMODULE>(handle_), buf, sizeof buf);
    if (n > 0 && n < sizeof buf)
        return std::string(buf, n);
#elif defined(__linux__)
    link_map* map = nullptr;
    if (dlinfo(handle_, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
        return map->l_name;
#endif
    return name_;
}

void* DynamicLibrary::symbol(const char* symbolName) const
{
    if (!handle_)
        return nullptr;
#ifdef _WIN32
    return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(handle_), symbolName));
#else
    return dlsym(handle_, symbolName);
#endif
}

} // namespace kw
