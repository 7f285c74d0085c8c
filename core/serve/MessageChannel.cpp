#include "serve/MessageChannel.hpp"

#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <cerrno>
#include <cstring>

namespace kw {

namespace {
constexpr std::size_t kMaxLine = std::size_t(1) << 30;
} // namespace

MessageChannel::MessageChannel(int inFd, int outFd, std::string pending)
    : inFd_(inFd)
    , outFd_(outFd)
    , buffer_(std::move(pending))
{
}

bool MessageChannel::fill()
{
    if (eof_)
        return false;
    char chunk[1 << 16];
    for (;;) {
        long n = fd::read(inFd_, chunk, sizeof chunk);
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

std::optional<Message> MessageChannel::read()
{
    std::size_t nl;
    while ((nl = buffer_.find('\n')) == std::string::npos) {
        if (buffer_.size() > kMaxLine)
            throw Error(ErrorCategory::Protocol, "message line longer than 1 GiB");
        if (!fill()) {
            if (buffer_.find_first_not_of(" \t\r\n") == std::string::npos)
                return std::nullopt;
            nl = buffer_.size(); // a last line without its newline
            buffer_.push_back('\n');
            break;
        }
    }
    std::string line = buffer_.substr(0, nl);
    buffer_.erase(0, nl + 1);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos)
        return read();

    Message m;
    try {
        m.header = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(ErrorCategory::Protocol, std::string("message is not valid JSON: ") + e.what());
    }
    if (!m.header.is_object())
        throw Error(ErrorCategory::Protocol, "message is not a JSON object");
    if (auto it = m.header.find("binary"); it != m.header.end()) {
        if (!it->is_number_unsigned())
            throw Error(ErrorCategory::Protocol, "\"binary\" must be a byte count");
        const std::size_t n = it->get<std::size_t>();
        while (buffer_.size() < n)
            if (!fill())
                throw Error(ErrorCategory::Protocol, "input ended inside a binary frame of "
                                                         + std::to_string(n) + " bytes");
        m.binary.resize(n);
        std::memcpy(m.binary.data(), buffer_.data(), n);
        buffer_.erase(0, n);
    }
    return m;
}

void MessageChannel::writeAll(const char* data, std::size_t bytes)
{
    std::size_t done = 0;
    while (done < bytes) {
        long n = fd::write(outFd_, data + done, bytes - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw Error(ErrorCategory::Io, std::string("serve: cannot write a reply: ") + std::strerror(errno));
        done += std::size_t(n);
    }
}

void MessageChannel::write(nlohmann::json header, const void* binary, std::size_t bytes)
{
    if (binary)
        header["binary"] = bytes;
    // Invalid UTF-8 from user printf output is replaced, never a reason to fail.
    std::string line = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    std::lock_guard lock(writeMutex_);
    writeAll(line.data(), line.size());
    if (binary && bytes)
        writeAll(static_cast<const char*>(binary), bytes);
}

} // namespace kw
