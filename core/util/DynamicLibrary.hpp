#pragma once
// A shared library opened at run time (dlopen / LoadLibrary), closed on destruction.
#include <string>
#include <vector>

namespace kw {

class DynamicLibrary {
public:
    DynamicLibrary() = default;
    ~DynamicLibrary();
    DynamicLibrary(DynamicLibrary&& other) noexcept;
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;

    // Tries each name in turn; returns an unloaded library when none opens.
    // `tried` collects "name: reason" for each failure, for the error message.
    static DynamicLibrary openFirst(const std::vector<std::string>& names, std::vector<std::string>* tried = nullptr);

    bool isLoaded() const noexcept { return handle_ != nullptr; }
    const std::string& name() const noexcept { return name_; }
    // The file the loader actually opened (a bare soname resolved to its path);
    // name() when the platform cannot tell.
    std::string filePath() const;
    void* symbol(const char* symbolName) const;

private:
    void* handle_ = nullptr;
    std::string name_;
};

} // namespace kw
