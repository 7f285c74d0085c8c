#include "serve/RunnerReplyReader.hpp"

#include "serve/Protocol.hpp"
#include "util/Error.hpp"

#include <cstring>

namespace kw {

using nlohmann::json;

namespace {

bool isFor(const json& message, const json& id)
{
    const auto it = message.find("id");
    return it != message.end() && *it == id;
}

} // namespace

RunnerReplyReader::RunnerReplyReader(MessageChannel& channel)
    : channel_(channel)
{
}

std::optional<json> RunnerReplyReader::read(const json& id, ReturnedBuffers& returned,
                                            std::map<std::string, HostBuffer>& frames, const StageCallback& onStage)
{
    try {
        for (;;) {
            std::optional<ReturnedBuffers::Frame> frame;
            // Judged before the payload is read: only a frame the request allows brings one,
            // and only of the size its checked header announces.
            const auto beforePayload = [&](const json& header, std::uint64_t bytes) {
                if (isFor(header, id) && protocol::eventOf(header) == protocol::event::kBuffer)
                    frame = returned.admit(header, bytes);
                else if (header.contains("binary"))
                    throw Error(ErrorCategory::Protocol,
                                "a payload of " + std::to_string(bytes)
                                    + " bytes on a message that is not a buffer frame of the request in flight");
            };
            std::optional<Message> m = channel_.read(beforePayload);
            if (!m)
                return std::nullopt;
            received_ += protocol::lineBytes(m->header) + m->binary.size();
            if (!isFor(m->header, id))
                continue;
            const std::string event = protocol::eventOf(m->header);
            if (event == protocol::event::kStage) {
                const std::string stage = protocol::stageOf(m->header);
                if (onStage)
                    onStage(stage);
                continue;
            }
            if (frame) {
                HostBuffer b(frame->dtype, frame->count); // the size admit() checked against the payload
                if (!m->binary.empty())
                    std::memcpy(b.data(), m->binary.data(), m->binary.size());
                frames[frame->name] = std::move(b);
                continue;
            }
            if (!event.empty())
                continue; // an event this client does not know: not the final reply
            return std::move(m->header);
        }
    } catch (const json::exception& e) { // a member of the wrong type that slipped past the readers
        throw Error(ErrorCategory::Protocol, std::string("a message that cannot be read: ") + e.what());
    }
}

} // namespace kw
