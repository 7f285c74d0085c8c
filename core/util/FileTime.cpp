#include "util/FileTime.hpp"

#ifdef _WIN32
#include <windows.h>
#endif

namespace kw {

bool setModifiedNow(const std::filesystem::path& file)
{
#ifdef _WIN32
    HANDLE h = CreateFileW(file.wstring().c_str(), FILE_WRITE_ATTRIBUTES,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    FILETIME now;
    GetSystemTimeAsFileTime(&now);
    const bool ok = SetFileTime(h, nullptr, nullptr, &now) != 0;
    CloseHandle(h);
    return ok;
#else
    std::error_code ec;
    std::filesystem::last_write_time(file, std::filesystem::file_time_type::clock::now(), ec);
    return !ec;
#endif
}

std::optional<std::int64_t> modificationTicks(const std::filesystem::path& file)
{
#ifdef _WIN32
    WIN32_FILE_ATTRIBUTE_DATA data;
    if (!GetFileAttributesExW(file.wstring().c_str(), GetFileExInfoStandard, &data))
        return std::nullopt;
    return (std::int64_t(data.ftLastWriteTime.dwHighDateTime) << 32) | data.ftLastWriteTime.dwLowDateTime;
#else
    std::error_code ec;
    const auto t = std::filesystem::last_write_time(file, ec);
    if (ec)
        return std::nullopt;
    return std::int64_t(t.time_since_epoch().count());
#endif
}

} // namespace kw
