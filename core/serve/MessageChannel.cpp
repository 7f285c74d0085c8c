#include "serve/MessageChannel.hpp"

#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"
#include "util/JsonDepth.hpp"
#include "util/SystemMemory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kw {

MessageChannel::MessageChannel(int inFd, int outFd, std::string pending)
    : reader_(inFd, kMaxLine, std::move(pending))
    , outFd_(outFd)
{
}

nlohmann::json MessageChannel::parseHeader(std::string_view line)
{
    if (jsonNestingDepth(line) > kMaxJsonDepth)
        throw Error(ErrorCategory::Protocol,
                    "message is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) { // syntax errors and numbers out of range alike
        throw Error(ErrorCategory::Protocol, std::string("message is not valid JSON: ") + e.what());
    }
    if (!header.is_object())
        throw Error(ErrorCategory::Protocol, "message is not a JSON object");
    return header;
}

std::uint64_t MessageChannel::payloadBytes(const nlohmann::json& header)
{
    const auto it = header.find("binary");
    if (it == header.end())
        return 0;
    if (!it->is_number_unsigned())
        throw Error(ErrorCategory::Protocol, "\"binary\" must be a byte count");
    return it->get<std::uint64_t>();
}

std::optional<Message> MessageChannel::read(const HeaderCheck& beforePayload)
{
    std::string line;
    for (;;) {
        const LineReader::Status status = reader_.readLine(line);
        if (status == LineReader::Status::End)
            return std::nullopt;
        if (status == LineReader::Status::TooLong)
            throw Error(ErrorCategory::Protocol,
                        "message line longer than " + std::to_string(kMaxLine >> 20)
                            + " MiB (large buffers travel in binary frames)");
        if (line.find_first_not_of(" \t") != std::string::npos)
            break;
    }
    Message m;
    m.header = parseHeader(line);
    const std::uint64_t n = payloadBytes(m.header);
    if (beforePayload)
        beforePayload(m.header, n);
    // The payload is read straight into the message, in reads as large as what is left.
    // Its memory is taken whole and never zeroed, so no byte is copied as it grows and a
    // page is first touched by the read that fills it: a header's count alone reserves
    // address space, and memory only as the bytes arrive. A frame larger than the
    // machine's memory is refused without asking for it (an allocator may abort rather
    // than fail on an absurd size, as AddressSanitizer's does).
    const std::size_t memory = physicalMemoryBytes();
    bool held = memory == 0 || n <= memory;
    if (held) {
        try {
            m.binary.resize(std::size_t(n));
        } catch (const std::exception&) { // bad_alloc, length_error
            held = false;
        }
    }
    if (!held) {
        // Skipped to its end, so the next message is read in step.
        std::vector<std::byte> scratch(std::size_t(1) << 20);
        for (std::uint64_t left = n; left > 0;) {
            const std::size_t got
                = reader_.readInto(scratch.data(), std::size_t(std::min<std::uint64_t>(left, scratch.size())));
            if (got == 0)
                break;
            left -= got;
        }
        throw Error(ErrorCategory::Protocol,
                    "a binary frame of " + std::to_string(n) + " bytes is more than this machine can hold");
    }
    std::size_t filled = 0;
    while (filled < n) {
        const std::size_t got = reader_.readInto(m.binary.data() + filled, m.binary.size() - filled);
        if (got == 0)
            throw Error(ErrorCategory::Protocol,
                        "input ended inside a binary frame of " + std::to_string(n) + " bytes ("
                            + std::to_string(filled) + " came)");
        filled += got;
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
    if (closed_)
        return;
    writeAll(line.data(), line.size());
    if (binary && bytes)
        writeAll(static_cast<const char*>(binary), bytes);
}

} // namespace kw

namespace kw {

void MessageChannel::writeLast(nlohmann::json header)
{
    std::string line = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    std::lock_guard lock(writeMutex_);
    if (closed_)
        return;
    closed_ = true;
    writeAll(line.data(), line.size());
}

} // namespace kw
