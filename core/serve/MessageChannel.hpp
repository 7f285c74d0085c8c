#pragma once
// The serve protocol's framing (docs/protocol.md): one JSON object per line; a
// message with "binary": N is followed by exactly N raw bytes.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kw {

struct Message {
    nlohmann::json header;
    std::vector<std::byte> binary;
};

class MessageChannel {
public:
    // `pending` holds bytes already read from `inFd` by an earlier process (re-exec).
    MessageChannel(int inFd, int outFd, std::string pending = {});

    // The next message; nullopt at end of input. A line that is not a JSON object
    // throws kw::Error(Protocol) after being consumed, so the caller can reply and go on.
    std::optional<Message> read();

    // Writes one message (and its binary payload, whose size it sets as "binary").
    // Thread-safe: a message is never interleaved with another.
    void write(nlohmann::json header, const void* binary = nullptr, std::size_t bytes = 0);

    // Bytes read from the input but not yet returned as messages.
    const std::string& unread() const noexcept { return buffer_; }

private:
    bool fill();  // reads more input; false at end
    void writeAll(const char* data, std::size_t bytes);

    int inFd_, outFd_;
    std::string buffer_;
    bool eof_ = false;
    std::mutex writeMutex_;
};

} // namespace kw
