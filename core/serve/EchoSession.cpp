#include "serve/EchoSession.hpp"

namespace kw {

nlohmann::json EchoSession::handle(const Message& message, Events& events)
{
    ++served_;
    events.event("received", {{"payload_bytes", message.binary.size()}});
    const auto body = message.header.find("body");
    return {{"echo", body != message.header.end() ? *body : nlohmann::json(nullptr)}, {"messages", served_}};
}

} // namespace kw
