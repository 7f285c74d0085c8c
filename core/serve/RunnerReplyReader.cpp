#include "serve/RunnerReplyReader.hpp"

#include "util/Error.hpp"

namespace kw {

using nlohmann::json;

RunnerReplyReader::RunnerReplyReader(MessageChannel& channel)
    : channel_(channel)
{
}

std::optional<json> RunnerReplyReader::read(const json& id, ReturnedBuffers& returned,
                                            std::map<std::string, HostBuffer>& frames, const StageCallback& onStage)
{
    protocol_.expect(id, std::move(returned));
    std::string chunk;
    for (;;) {
        while (std::optional<ClientProtocol::Event> e = protocol_.next()) {
            using Kind = ClientProtocol::Event::Kind;
            switch (e->kind) {
            case Kind::Unreadable:
            case Kind::Broken: throw Error(ErrorCategory::Protocol, e->error);
            case Kind::Stage:
                if (e->id == id && onStage)
                    onStage(e->stage);
                break;
            case Kind::Step: break;   // progress within the launch stage
            case Kind::Buffer: break; // its data comes with the reply
            case Kind::Reply:
                if (e->id != id)
                    break;
                returned = std::move(e->returned);
                for (auto& [name, buffer] : e->frames)
                    frames[name] = std::move(buffer);
                return std::move(e->message);
            }
        }
        if (ended_)
            return std::nullopt;
        // A frame's payload goes straight into its buffer, in reads as large as it is.
        if (const std::span<std::byte> room = protocol_.frameRoom(); !room.empty()) {
            if (const std::size_t got = channel_.readInto(room.data(), room.size()))
                protocol_.wrote(got);
            else {
                ended_ = true;
                protocol_.end();
            }
            continue;
        }
        if (channel_.readSome(chunk))
            protocol_.receive(chunk.data(), chunk.size());
        else {
            ended_ = true;
            protocol_.end();
        }
    }
}

} // namespace kw
