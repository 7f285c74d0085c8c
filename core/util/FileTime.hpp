#pragma once
// A file's modification time set to now, to the file system's full precision.
// (MinGW's std::filesystem::last_write_time setter rounds to whole seconds, which
// would put a file touched now before files written earlier in the same second.)
#include <filesystem>

namespace kw {

// False when the file cannot be touched (missing, read-only file system).
bool setModifiedNow(const std::filesystem::path& file);

} // namespace kw
