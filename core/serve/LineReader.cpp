#include "serve/LineReader.hpp"

#include "util/FileDescriptor.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kw {

namespace {
constexpr std::size_t kChunk = std::size_t(1) << 16;
} // namespace

LineReader::LineReader(int fd, std::size_t maxLine, std::string pending)
    : fd_(fd)
    , maxLine_(maxLine)
    , buffer_(std::move(pending))
{
}

bool LineReader::fill()
{
    if (eof_)
        return false;
    char chunk[kChunk];
    for (;;) {
        const long n = fd::read(fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        buffer_.append(chunk, std::size_t(n));
        return true;
    }
}

void LineReader::compact()
{
    if (start_ > 0 && start_ >= buffer_.size() / 2) {
        buffer_.erase(0, start_);
        start_ = 0;
    }
}

LineReader::Status LineReader::readLine(std::string& line)
{
    bool tooLong = false;
    for (;;) {
        const char* base = buffer_.data() + start_;
        const std::size_t available = buffer_.size() - start_;
        const void* nl = scanned_ < available ? std::memchr(base + scanned_, '\n', available - scanned_) : nullptr;
        if (nl) {
            const std::size_t length = std::size_t(static_cast<const char*>(nl) - base);
            if (!tooLong)
                line.assign(base, length && base[length - 1] == '\r' ? length - 1 : length);
            start_ += length + 1;
            scanned_ = 0;
            compact();
            return tooLong ? Status::TooLong : Status::Line;
        }
        scanned_ = available;
        if (available > maxLine_) { // drop what we have of the oversized line and skip to its end
            tooLong = true;
            buffer_.erase(start_);
            scanned_ = 0;
        }
        if (!fill()) {
            const std::size_t rest = buffer_.size() - start_;
            if (tooLong) {
                start_ = buffer_.size();
                return Status::TooLong;
            }
            if (rest == 0)
                return Status::End;
            line.assign(buffer_, start_, rest);
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            start_ = buffer_.size();
            scanned_ = 0;
            return Status::Line;
        }
    }
}

bool LineReader::readSome(std::string& out)
{
    if (start_ == buffer_.size() && !fill())
        return false;
    out.assign(buffer_, start_);
    buffer_.clear();
    start_ = 0;
    scanned_ = 0;
    return true;
}

bool LineReader::readBytes(std::size_t n, std::string& out)
{
    out.clear();
    for (;;) {
        const std::size_t available = buffer_.size() - start_;
        const std::size_t take = std::min(available, n - out.size());
        out.append(buffer_, start_, take);
        start_ += take;
        scanned_ = 0;
        compact();
        if (out.size() == n)
            return true;
        if (!fill())
            return false;
    }
}

std::size_t LineReader::readInto(std::byte* dst, std::size_t n)
{
    if (n == 0)
        return 0;
    if (const std::size_t available = buffer_.size() - start_) {
        const std::size_t take = std::min(available, n);
        std::memcpy(dst, buffer_.data() + start_, take);
        start_ += take;
        scanned_ = 0;
        compact();
        return take;
    }
    if (eof_)
        return 0;
    for (;;) {
        const long got = fd::read(fd_, reinterpret_cast<char*>(dst), n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            eof_ = true;
            return 0;
        }
        return std::size_t(got);
    }
}

} // namespace kw
