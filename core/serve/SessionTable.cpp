#include "serve/SessionTable.hpp"

#include "serve/DebugProtocolSession.hpp"
#include "serve/EchoSession.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"

#include <random>

namespace kw {

using nlohmann::json;

namespace {

std::string processPrefix()
{
    std::random_device random;
    const std::uint32_t n = random();
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (int shift = 28; shift >= 0; shift -= 4)
        s.push_back(hex[(n >> shift) & 0xf]);
    return s + "-";
}

} // namespace

bool SessionTable::wasOpened(const std::string& number) const
{
    if (number.empty() || number.size() > 18 || number.find_first_not_of("0123456789") != std::string::npos)
        return false;
    return std::stoull(number) < next_;
}

SessionTable::SessionTable()
    : prefix_(processPrefix())
{
    addKind(EchoSession::kKind, [](const Message&) { return std::make_unique<EchoSession>(); });
    addKind(DebugProtocolSession::kKind,
            [](const Message& open) { return std::make_unique<DebugProtocolSession>(open); });
}

void SessionTable::addKind(const std::string& kind, Factory make) { kinds_[kind] = std::move(make); }

json SessionTable::open(const Message& request)
{
    const std::string kind = JsonField::get<std::string>(request.header, "kind", {});
    const auto make = kinds_.find(kind);
    if (make == kinds_.end())
        throw Error(ErrorCategory::Protocol, "unknown session kind \"" + kind + "\"");
    if (open_.size() >= kMaxSessions)
        throw Error(ErrorCategory::Protocol,
                    "too many sessions: " + std::to_string(kMaxSessions) + " are open; close one first");
    std::unique_ptr<ProtocolSession> session = make->second(request);
    const std::string id = prefix_ + std::to_string(next_++);
    open_.emplace(id, std::move(session));
    return {{"session", id}, {"kind", kind}};
}

std::map<std::string, std::unique_ptr<ProtocolSession>>::iterator SessionTable::find(const json& request)
{
    const std::string id = JsonField::get<std::string>(request, "session", {});
    const auto it = open_.find(id);
    if (it != open_.end())
        return it;
    if (id.empty())
        throw Error(ErrorCategory::Protocol, "a session request without a \"session\" id");
    if (id.rfind(prefix_, 0) == 0 && wasOpened(id.substr(prefix_.size())))
        throw Error(ErrorCategory::Protocol, "session \"" + id + "\" is closed");
    throw Error(ErrorCategory::Protocol,
                "no session \"" + id + "\" is open (sessions end with the runner process that opened them)");
}

json SessionTable::message(const Message& request, MessageChannel& channel)
{
    const auto it = find(request.header);
    ProtocolSession::Events events(channel, request.header.value("id", json(nullptr)));
    return it->second->handle(request, events);
}

json SessionTable::close(const Message& request)
{
    open_.erase(find(request.header));
    return json::object();
}

} // namespace kw
