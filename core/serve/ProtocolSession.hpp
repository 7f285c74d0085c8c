#pragma once
// What a session kind implements (docs/protocol.md, "Sessions"): a job that stays open in
// the runner and takes further messages. The runner's SessionTable opens it, hands it
// every `message` addressed to it, one at a time between other requests, and destroys it
// at `close` or with the runner. It knows nothing of the table or of other sessions.
#include "serve/MessageChannel.hpp"
#include "serve/Protocol.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string_view>

namespace kw {

class ProtocolSession {
public:
    // Writes the events of the message being served, before its final reply.
    class Events {
    public:
        Events(MessageChannel& channel, nlohmann::json id)
            : channel_(channel)
            , id_(std::move(id))
        {
        }
        void event(std::string_view name, nlohmann::json body = nlohmann::json::object())
        {
            channel_.write(protocol::eventMessage(id_, name, std::move(body)));
        }

    private:
        MessageChannel& channel_;
        nlohmann::json id_;
    };

    virtual ~ProtocolSession() = default;

    // Serves one message (its "body" and binary payload) and returns its reply's result.
    // Throws (kw::Error) to refuse it: an error reply, and the session stays open.
    virtual nlohmann::json handle(const Message& message, Events& events) = 0;
};

} // namespace kw
