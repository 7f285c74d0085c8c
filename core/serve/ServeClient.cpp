#include "serve/ServeClient.hpp"

#include "serve/RunRequestOptions.hpp"

#include "serve/JobCodec.hpp"
#include "serve/Protocol.hpp"
#include "serve/RunnerFailure.hpp"
#include "util/Error.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace kw {

using nlohmann::json;

ServeClient::ServeClient(const std::string& commandLine)
    : process_(commandLine)
    , channel_(process_.outputFd(), process_.inputFd())
    , reader_(channel_)
    , reply_(commandLine)
{
    ReturnedBuffers none;
    std::map<std::string, HostBuffer> frames;
    const json reply = roundTrip(protocol::request(nextId_++, protocol::op::kHello), {}, {}, none, frames);
    RunnerReply::Hello hello = reply_.hello(reply);
    release_ = std::move(hello.release);
    devices_ = std::move(hello.devices);
}

ServeClient::~ServeClient()
{
    try {
        channel_.write(protocol::request(0, protocol::op::kShutdown));
    } catch (...) {
    }
    process_.closeInput();
    // A runner that does not leave within a few seconds is ended.
    std::thread killer;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    bool done = false;
    std::mutex m;
    std::condition_variable cv;
    killer = std::thread([&] {
        std::unique_lock lock(m);
        if (!cv.wait_until(lock, deadline, [&] { return done; }))
            process_.kill();
    });
    process_.wait();
    {
        std::lock_guard lock(m);
        done = true;
    }
    cv.notify_all();
    killer.join();
}

void ServeClient::lost(const std::string& during)
{
    process_.kill();
    const std::string how = process_.wait();
    throw Error(ErrorCategory::Io,
                RunnerFailure::describe(process_.commandLine(), how, process_.stderrTail()) + "; " + during);
}

json ServeClient::roundTrip(const json& header, const HostBytes& payload, const StageCallback& onStage,
                            ReturnedBuffers& returned, std::map<std::string, HostBuffer>& frames)
{
    const json id = header["id"];
    const bool isHello = protocol::opOf(header) == protocol::op::kHello;
    const std::string during = isHello ? "it ended before answering" : "the job in flight is lost";
    last_ = {};
    try {
        channel_.write(header, payload.empty() ? nullptr : payload.data(), payload.size());
    } catch (const Error&) {
        lost(during);
    }
    json sentHeader = header;
    if (!payload.empty())
        sentHeader["binary"] = payload.size();
    last_.sent = protocol::lineBytes(sentHeader) + payload.size();
    const std::uint64_t receivedBefore = reader_.received();
    std::optional<json> reply;
    try {
        reply = reader_.read(id, returned, frames, onStage);
    } catch (const Error& e) {
        if (isHello) // not our protocol at all: a shell banner, another program
            throw Error(ErrorCategory::Protocol,
                        "the runner \"" + process_.commandLine()
                            + "\" did not answer in the serve protocol: " + e.what());
        throw reply_.broken(e.what());
    }
    last_.received = reader_.received() - receivedBefore;
    if (!reply)
        lost(during);
    total_.sent += last_.sent;
    total_.received += last_.received;
    return std::move(*reply);
}

RunResult ServeClient::run(const Document& doc, const std::string& device, const std::string& returnBuffers,
                           const StageCallback& onStage, const RunOverrides& overrides)
{
    EncodedJob job = JobCodec::encode(doc, protocol::op::kRun, nextId_++, device);
    job.header["return_buffers"] = returnBuffers;
    writeRunOptions(job.header, overrides);
    ReturnedBuffers returned(doc, returnBuffers, overrides.stepBuffers);
    std::map<std::string, HostBuffer> frames;
    const json reply = roundTrip(job.header, job.payload, onStage, returned, frames);
    return reply_.run(reply_.result(reply), returned, frames);
}

CompileResult ServeClient::compile(const Document& doc, const std::string& device)
{
    EncodedJob job = JobCodec::encode(doc, protocol::op::kCompile, nextId_++, device);
    ReturnedBuffers none;
    std::map<std::string, HostBuffer> frames;
    const json reply = roundTrip(job.header, job.payload, {}, none, frames);
    return reply_.compile(reply_.result(reply));
}

} // namespace kw
