#pragma once
// The smallest session kind, "echo": answers every message with its body and how many
// messages the session has served, after a "received" event. It proves the session
// machinery end to end (tests, a client checking that its runner has sessions).
#include "serve/ProtocolSession.hpp"

namespace kw {

class EchoSession : public ProtocolSession {
public:
    static constexpr const char* kKind = "echo";

    nlohmann::json handle(const Message& message, Events& events) override;

private:
    int served_ = 0;
};

} // namespace kw
