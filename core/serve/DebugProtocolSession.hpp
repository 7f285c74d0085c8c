#pragma once
// The session kind "debug" (docs/protocol.md, "Sessions"; docs/debugger.md): a document's
// launch held in a DebugSession on the simulator, between messages. Opened with the
// document as a run job sends it (and `step`, `check`); each message's body
// {"command": "break 18"} is a command of the debugger's language, answered with its
// text and where the launch stands. The window drives the same DebugSession through it.
#include "serve/ProtocolSession.hpp"

#include <memory>

namespace kw {

class Compiler;

namespace debug {
class DebugConsole;
class DebugSession;
} // namespace debug

class DebugProtocolSession : public ProtocolSession {
public:
    static constexpr const char* kKind = "debug";

    // Throws kw::Error: a document that does not compile or cannot be launched.
    explicit DebugProtocolSession(const Message& open);
    ~DebugProtocolSession() override;

    nlohmann::json handle(const Message& message, Events& events) override;

private:
    std::unique_ptr<Compiler> compiler_;
    std::unique_ptr<debug::DebugSession> session_;
    std::unique_ptr<debug::DebugConsole> console_;
};

} // namespace kw
