#include "serve/ClientProtocol.hpp"

#include "serve/MessageChannel.hpp"
#include "serve/Protocol.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cstring>

namespace kw {

using nlohmann::json;

std::string ClientProtocol::send(json header, std::span<const std::byte> payload, ReturnedBuffers returned)
{
    expect(header.value("id", json(nullptr)), std::move(returned));
    std::string wire = protocol::encode(std::move(header), payload.empty() ? nullptr : payload.data(), payload.size());
    sent_ += wire.size();
    return wire;
}

void ClientProtocol::expect(const json& id, ReturnedBuffers returned)
{
    inFlight_[id] = InFlight{std::move(returned), {}};
}

void ClientProtocol::fail(std::string why)
{
    broken_ = true;
    line_.clear();
    frame_.reset();
    Event e;
    e.kind = Event::Kind::Broken;
    e.error = std::move(why);
    events_.push_back(std::move(e));
}

void ClientProtocol::receive(const char* data, std::size_t bytes)
{
    std::size_t at = 0;
    while (at < bytes && !broken_) {
        if (frame_) {
            const std::size_t take = std::min(bytes - at, frame_->byteSize() - frameFilled_);
            std::memcpy(frame_->data() + frameFilled_, data + at, take);
            at += take;
            wrote(take);
            continue;
        }
        const void* nl = std::memchr(data + at, '\n', bytes - at);
        const std::size_t end = nl ? std::size_t(static_cast<const char*>(nl) - data) : bytes;
        line_.append(data + at, end - at);
        at = nl ? end + 1 : bytes;
        if (line_.size() > MessageChannel::kMaxLine) {
            fail("message line longer than " + std::to_string(MessageChannel::kMaxLine >> 20)
                 + " MiB (large buffers travel in binary frames)");
            return;
        }
        if (nl) {
            received_ += line_.size() + 1;
            takeLine(std::exchange(line_, {}));
        }
    }
}

void ClientProtocol::end()
{
    if (broken_)
        return;
    if (frame_) {
        fail("input ended inside a binary frame of " + std::to_string(frame_->byteSize()) + " bytes ("
             + std::to_string(frameFilled_) + " came)");
        return;
    }
    if (!line_.empty()) {
        received_ += line_.size();
        takeLine(std::exchange(line_, {}));
    }
}

std::optional<ClientProtocol::Event> ClientProtocol::next()
{
    if (events_.empty())
        return std::nullopt;
    Event e = std::move(events_.front());
    events_.pop_front();
    return e;
}

std::span<std::byte> ClientProtocol::frameRoom()
{
    if (!frame_ || broken_)
        return {};
    return {frame_->data() + frameFilled_, frame_->byteSize() - frameFilled_};
}

void ClientProtocol::wrote(std::size_t bytes)
{
    frameFilled_ += bytes;
    received_ += bytes;
    if (frame_ && frameFilled_ == frame_->byteSize())
        frameDone();
}

void ClientProtocol::frameDone()
{
    const json id = frameHeader_.value("id", json(nullptr));
    Event e;
    e.kind = Event::Kind::Buffer;
    e.id = id;
    e.buffer = frameName_;
    e.step = frameStep_;
    e.message = std::move(frameHeader_);
    inFlight_[id].frames[ReturnedBuffers::frameKey(frameStep_, frameName_)] = std::move(*frame_);
    frame_.reset();
    events_.push_back(std::move(e));
}

void ClientProtocol::takeLine(std::string line)
{
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos)
        return;
    json header;
    try {
        header = MessageChannel::parseHeader(line);
    } catch (const Error& e) {
        Event u;
        u.kind = Event::Kind::Unreadable;
        u.line = std::move(line);
        u.error = e.what();
        events_.push_back(std::move(u));
        return;
    }
    try {
        takeHeader(std::move(header));
    } catch (const Error& e) {
        fail(e.what());
    } catch (const json::exception& e) { // a member of the wrong type that slipped past the readers
        fail(std::string("a message that cannot be read: ") + e.what());
    }
}

void ClientProtocol::takeHeader(json header)
{
    const std::uint64_t bytes = MessageChannel::payloadBytes(header);
    const auto idIt = header.find("id");
    const json id = idIt != header.end() ? *idIt : json(nullptr);
    const auto request = inFlight_.find(id);
    const bool ours = idIt != header.end() && request != inFlight_.end();
    if (header.contains("binary")) {
        // Judged before the payload is taken: only a frame the request allows brings one,
        // and only of the size its checked header announces.
        if (!ours || protocol::eventOf(header) != protocol::event::kBuffer)
            throw Error(ErrorCategory::Protocol,
                        "a payload of " + std::to_string(bytes)
                            + " bytes on a message that is not a buffer frame of the request in flight");
    }
    if (!ours)
        return; // a message of a request this client does not wait for
    const std::string event = protocol::eventOf(header);
    if (event == protocol::event::kBuffer) {
        const ReturnedBuffers::Frame f = request->second.returned.admit(header, bytes);
        // The size admit() checked against the payload; a frame cut short is never used.
        frame_ = HostBuffer::uninitialised(f.dtype, f.count);
        frameName_ = f.name;
        frameStep_ = f.step;
        frameFilled_ = 0;
        frameHeader_ = std::move(header);
        if (frame_->byteSize() == 0)
            frameDone();
        return;
    }
    Event e;
    e.id = id;
    if (event == protocol::event::kStage) {
        e.kind = Event::Kind::Stage;
        e.stage = protocol::stageOf(header);
        if (e.stage == protocol::stage::kStep) {
            e.kind = Event::Kind::Step;
            e.step = protocol::stepOf(header);
        }
        e.message = std::move(header);
        events_.push_back(std::move(e));
        return;
    }
    if (!event.empty())
        return; // an event this client does not know: not the final reply
    e.kind = Event::Kind::Reply;
    e.message = std::move(header);
    e.returned = std::move(request->second.returned);
    e.frames = std::move(request->second.frames);
    inFlight_.erase(request);
    events_.push_back(std::move(e));
}

} // namespace kw
