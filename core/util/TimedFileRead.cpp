#include "util/TimedFileRead.hpp"

#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace kw {

namespace {

TimedRead readNow(const std::filesystem::path& path, std::size_t maxBytes)
{
    TimedRead r;
#ifndef _WIN32
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return r;
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        r.status = TimedReadStatus::NotRegular;
        return r;
    }
    if (static_cast<std::uintmax_t>(st.st_size) > maxBytes) {
        ::close(fd);
        r.status = TimedReadStatus::TooLarge;
        return r;
    }
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0) {
            ::close(fd);
            return r;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    bytes.resize(got);
#else
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st))
        return r; // missing or not to be looked at: Unreadable, as open() failing on POSIX
    if (!std::filesystem::is_regular_file(st)) {
        r.status = TimedReadStatus::NotRegular;
        return r;
    }
    if (std::filesystem::file_size(path, ec) > maxBytes) {
        r.status = TimedReadStatus::TooLarge;
        return r;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return r;
    std::string bytes(maxBytes, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(maxBytes));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
#endif
    r.status = TimedReadStatus::Read;
    r.bytes = std::move(bytes);
    return r;
}

} // namespace

TimedRead readFileWithin(const std::filesystem::path& path, std::size_t maxBytes, std::chrono::milliseconds limit)
{
    struct Shared {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        TimedRead result;
    };
    auto shared = std::make_shared<Shared>();
    // Detached: a read stuck in the kernel cannot be cancelled, only left behind.
    std::thread([shared, path, maxBytes] {
        TimedRead r = readNow(path, maxBytes);
        std::lock_guard lock(shared->m);
        shared->result = std::move(r);
        shared->done = true;
        shared->cv.notify_all();
    }).detach();
    std::unique_lock lock(shared->m);
    if (!shared->cv.wait_for(lock, limit, [&] { return shared->done; }))
        return {TimedReadStatus::TimedOut, {}};
    return std::move(shared->result);
}

} // namespace kw
