#pragma once
// The runner's open sessions (docs/protocol.md, "Sessions"): `open` makes one of a known
// kind and names it by an id unique to this runner process, `message` hands a message to
// it, `close` ends it. At most kMaxSessions are open at once. Every refusal (an unknown
// kind or id, a closed session, too many) is kw::Error(Protocol); the table is unchanged.
#include "serve/MessageChannel.hpp"
#include "serve/ProtocolSession.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace kw {

class SessionTable {
public:
    using Factory = std::function<std::unique_ptr<ProtocolSession>(const Message& open)>;

    static constexpr std::size_t kMaxSessions = 16;

    // With the kinds the runner serves.
    SessionTable();

    void addKind(const std::string& kind, Factory make);

    // The result of each request's reply.
    nlohmann::json open(const Message& request);
    nlohmann::json message(const Message& request, MessageChannel& channel);
    nlohmann::json close(const Message& request);

    std::size_t openCount() const noexcept { return open_.size(); }

private:
    std::map<std::string, std::unique_ptr<ProtocolSession>>::iterator find(const nlohmann::json& request);
    // Whether the number after this process's prefix names a session it opened.
    bool wasOpened(const std::string& number) const;

    std::map<std::string, Factory> kinds_;
    std::map<std::string, std::unique_ptr<ProtocolSession>> open_;
    std::string prefix_; // this process's, so an id of a replaced runner is never taken for one of ours
    std::uint64_t next_ = 1;
};

} // namespace kw
