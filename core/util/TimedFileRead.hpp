#pragma once
// Reads a small file for display without letting the file decide how long the caller
// waits: the read runs on a thread of its own and is abandoned at the time limit (a
// stalled network mount or FUSE folder), and anything but a regular file of at most
// `maxBytes` is refused at open, so a FIFO swapped in after a check cannot block.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace kw {

enum class TimedReadStatus { Read, NotRegular, TooLarge, Unreadable, TimedOut };

struct TimedRead {
    TimedReadStatus status = TimedReadStatus::Unreadable;
    std::string bytes; // when Read
};

TimedRead readFileWithin(const std::filesystem::path& path, std::size_t maxBytes, std::chrono::milliseconds limit);

} // namespace kw
