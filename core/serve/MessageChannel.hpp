#pragma once
// The serve protocol's framing (docs/protocol.md): one JSON object per line; a
// message with "binary": N is followed by exactly N raw bytes.
#include "data/HostBytes.hpp"
#include "serve/LineReader.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct Message {
    nlohmann::json header;
    HostBytes binary; // the payload, as read: never zeroed first
};

class MessageChannel {
public:
    // `pending` holds bytes already read from `inFd` by an earlier process (re-exec).
    MessageChannel(int inFd, int outFd, std::string pending = {});

    // Sees a message's header and the size of its payload before the payload is read, and
    // may refuse it (throw): a frame the reader does not expect is never read into memory.
    using HeaderCheck = std::function<void(const nlohmann::json& header, std::uint64_t payloadBytes)>;

    // The next message; nullopt at end of input. A line that is not a JSON object (or
    // too long, or nested too deeply) throws kw::Error(Protocol) after being consumed,
    // so the caller can reply and go on. After `beforePayload` refused a header, its
    // payload is still unread: the channel is out of step and the conversation over.
    std::optional<Message> read(const HeaderCheck& beforePayload = {});

    // The input's next bytes as they come, for a reader that parses them itself
    // (ClientProtocol); false at end of input.
    bool readSome(std::string& out) { return reader_.readSome(out); }
    // Up to `n` of the input's next bytes straight into `dst` (a frame's own memory); 0 at
    // end of input.
    std::size_t readInto(std::byte* dst, std::size_t n) { return reader_.readInto(dst, n); }

    // One header line as a message header: a JSON object nested at most kMaxJsonDepth
    // levels. Throws kw::Error(Protocol).
    static nlohmann::json parseHeader(std::string_view line);
    // The payload a header announces ("binary": N; 0 without). Throws kw::Error(Protocol)
    // when "binary" is not a byte count.
    static std::uint64_t payloadBytes(const nlohmann::json& header);

    // Writes one message (and its binary payload, whose size it sets as "binary").
    // Thread-safe: a message is never interleaved with another.
    void write(nlohmann::json header, const void* binary = nullptr, std::size_t bytes = 0);

    // Bytes read from the input but not yet returned as messages.
    std::string unread() const { return reader_.unread(); }

    // Writes a last message and drops every later one, so nothing another thread writes
    // can follow it (the process is about to be replaced).
    void writeLast(nlohmann::json header);

    // The longest request line accepted (documents travel inline; buffers in frames).
    static constexpr std::size_t kMaxLine = std::size_t(64) << 20;

private:
    void writeAll(const char* data, std::size_t bytes);

    LineReader reader_;
    int outFd_;
    std::mutex writeMutex_;
    bool closed_ = false;
};

} // namespace kw
