#pragma once
// The client's side of the serve protocol (docs/protocol.md) without any I/O: requests go
// out as bytes, the runner's bytes come in in chunks of any size, and what they say comes
// out as events, in order. Both clients drive it: RunnerReplyReader (blocking, for
// ServeClient and `kwb-run run --runner`) and the window's RunnerClient (Qt).
//
// The runner is never believed: a buffer frame is judged by the ReturnedBuffers of its
// request before its payload is taken, and a payload on anything else, a member of the
// wrong type or a line over MessageChannel::kMaxLine ends the conversation with a Broken
// event; nothing is parsed after it. A line that is not JSON is only reported
// (Unreadable): a client decides whether that ends the conversation.
#include "data/HostBuffer.hpp"
#include "serve/ReturnedBuffers.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>

namespace kw {

class ClientProtocol {
public:
    struct Event {
        enum class Kind {
            Stage,      // a stage event of a request in flight: `stage`
            Step,       // a document of steps: step `step` of a request in flight begins a run
            Buffer,     // a buffer frame of a request in flight came whole: `buffer` names it (`step`: after that step)
            Reply,      // the final reply of a request in flight: `message`, `returned`, `frames`
            Unreadable, // a line that is not a message: `line`, `error`
            Broken,     // the runner broke the protocol: `error`; nothing follows
        };
        Kind kind = Kind::Reply;
        nlohmann::json id;      // the request's (null for Unreadable and Broken)
        nlohmann::json message; // the header of a Stage, Buffer or Reply
        std::string stage;
        std::string buffer;
        std::string step;
        std::string line;
        std::string error;
        ReturnedBuffers returned;                 // what the request let the runner send back
        std::map<std::string, HostBuffer> frames; // the frames that came for it, by ReturnedBuffers::frameKey
    };

    // A request as it goes on the wire; its events and final reply are expected from now
    // on, frames as `returned` admits them.
    std::string send(nlohmann::json header, std::span<const std::byte> payload = {}, ReturnedBuffers returned = {});
    // Expects the events and final reply of request `id`, sent by other means.
    void expect(const nlohmann::json& id, ReturnedBuffers returned = {});

    // Bytes the runner wrote, as they came.
    void receive(const char* data, std::size_t bytes);
    // The runner's output ended: a last line without a newline is taken; inside a frame,
    // the conversation is Broken.
    void end();
    // The next event, oldest first; nullopt when the bytes so far say nothing more.
    std::optional<Event> next();

    // Where the payload of the frame in progress wants its next bytes (empty outside a
    // frame): a reader may fill it straight from its source and say how much with wrote().
    std::span<std::byte> frameRoom();
    void wrote(std::size_t bytes);

    // Bytes of the messages taken (header lines with their newlines, and payloads), and sent.
    std::uint64_t received() const noexcept { return received_; }
    std::uint64_t sent() const noexcept { return sent_; }
    bool broken() const noexcept { return broken_; }

private:
    struct InFlight {
        ReturnedBuffers returned;
        std::map<std::string, HostBuffer> frames;
    };
    void takeLine(std::string line);
    void takeHeader(nlohmann::json header);
    void frameDone();
    void fail(std::string why);

    std::map<nlohmann::json, InFlight> inFlight_;
    std::deque<Event> events_;
    std::string line_; // the line that has not ended yet
    // The frame in progress (frame_ set): its header, its buffer, the bytes still to come.
    nlohmann::json frameHeader_;
    std::string frameName_, frameStep_;
    std::optional<HostBuffer> frame_;
    std::size_t frameFilled_ = 0;
    bool broken_ = false;
    std::uint64_t received_ = 0;
    std::uint64_t sent_ = 0;
};

} // namespace kw
