#pragma once
// The client's side of requests over a MessageChannel, blocking (docs/protocol.md,
// "Replies"): feeds the runner's output to a ClientProtocol up to the final reply to a
// request, hands its stage events on, and takes the buffer frames the request allows, each
// checked by ReturnedBuffers before its payload is read. Used by ServeClient and the fuzz
// target tests/fuzz/fuzz_runner_reply; one reader serves a whole conversation.
#include "data/HostBuffer.hpp"
#include "serve/ClientProtocol.hpp"
#include "serve/MessageChannel.hpp"
#include "serve/ReturnedBuffers.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace kw {

class RunnerReplyReader {
public:
    using StageCallback = std::function<void(const std::string& stage)>;

    explicit RunnerReplyReader(MessageChannel& channel);

    // The final reply to request `id` (a message with that id and no "event"); nullopt when
    // the runner's output ends first. Messages of other requests are skipped. Throws
    // kw::Error(Protocol) for what the protocol does not allow: a line that is not a message,
    // an ill-typed member, a payload anywhere but on a frame `returned` admits. The channel
    // is then out of step: the conversation is over.
    std::optional<nlohmann::json> read(const nlohmann::json& id, ReturnedBuffers& returned,
                                       std::map<std::string, HostBuffer>& frames, const StageCallback& onStage = {});

    // Bytes of the messages read so far (header lines and payloads).
    std::uint64_t received() const noexcept { return protocol_.received(); }

private:
    MessageChannel& channel_;
    ClientProtocol protocol_;
    bool ended_ = false;
};

} // namespace kw
