#pragma once
// The Debug Adapter Protocol's framing: each message is a header ("Content-Length: N",
// other fields ignored, lines ended by CR LF or LF, an empty line last) and N bytes of
// JSON. Bytes in, message bodies out, no I/O, so a test can hand it any byte string.
//
// A header that cannot be read (no Content-Length, not a number, longer than the header
// limit, a length over the body limit) leaves no way to find where the next message
// begins: the reader becomes broken and says why, and its owner ends the conversation.
// A body that is not JSON is the client's mistake inside an intact stream: the owner
// answers it with an error response and reads on.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace kw::debug {

struct DapLimits {
    std::size_t headerBytes = 4096;    // the whole header, its empty line included
    std::size_t bodyBytes = 16u << 20; // one message's JSON
};

class DapFraming {
public:
    explicit DapFraming(DapLimits limits = {});

    // Hands over bytes read from the client.
    void feed(std::string_view bytes);
    // The next whole message's body, in order; nullopt when none is complete (or broken).
    std::optional<std::string> next();
    // How many more bytes the message under way needs at least (1 inside a header): a
    // reader can ask for a body in one read without reading into the next message.
    std::size_t wanted() const;
    // The stream cannot be read on; why. Empty while it can.
    const std::string& broken() const { return broken_; }
    // Bytes of a message begun and not finished (the input ended inside a frame).
    bool midFrame() const { return !header_.empty() || body_ || !pending_.empty(); }

    // A message as the client reads it: its header and its JSON.
    static std::string frame(const nlohmann::json& message);

private:
    DapLimits limits_;
    std::string pending_;             // bytes not consumed yet
    std::string header_;              // the header read so far
    std::optional<std::size_t> body_; // the body's length, once the header is read
    std::deque<std::string> ready_;
    std::string broken_;

    void consume();
    bool readHeaderByte(char c);
    void headerDone();
};

} // namespace kw::debug
