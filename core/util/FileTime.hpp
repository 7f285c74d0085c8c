#pragma once
// A file's modification time, set and read to the file system's full precision.
// (MinGW's std::filesystem::last_write_time rounds to whole seconds both ways, so
// files written within one second could not be told apart by age.)
#include <cstdint>
#include <filesystem>
#include <optional>

namespace kw {

// False when the file cannot be touched (missing, read-only file system).
bool setModifiedNow(const std::filesystem::path& file);

// The modification time in the file system's own ticks: only for comparing files'
// ages. nullopt when it cannot be read.
std::optional<std::int64_t> modificationTicks(const std::filesystem::path& file);

} // namespace kw
