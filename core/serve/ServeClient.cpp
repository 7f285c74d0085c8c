#include "serve/ServeClient.hpp"

#include "serve/RunRequestOptions.hpp"

#include "serve/JobCodec.hpp"
#include "serve/Protocol.hpp"
#include "serve/RunnerFailure.hpp"
#include "util/Error.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstring>
#include <thread>

namespace kw {

using nlohmann::json;

ServeClient::ServeClient(const std::string& commandLine)
    : process_(commandLine)
    , channel_(process_.outputFd(), process_.inputFd())
{
    const json reply = roundTrip(protocol::request(nextId_++, protocol::op::kHello), {}, {}, nullptr);
    protocol::checkHelloReply(reply);
    const json result = reply.value("result", json::object());
    release_ = result.value("version", std::string());
    for (const json& d : result.value("devices", json::array()))
        devices_.push_back(deviceInfoFromJson(d));
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
    throw Error(ErrorCategory::Io, RunnerFailure::describe(process_.commandLine(), how, process_.stderrTail())
                                       + "; " + during);
}

json ServeClient::roundTrip(const json& header, const std::vector<std::byte>& payload, const StageCallback& onStage,
                            std::map<std::string, HostBuffer>* buffers)
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
    for (;;) {
        std::optional<Message> m;
        try {
            m = channel_.read();
        } catch (const Error& e) {
            if (isHello) // not our protocol at all: a shell banner, another program
                throw Error(ErrorCategory::Protocol, "the runner \"" + process_.commandLine()
                                                         + "\" did not answer in the serve protocol: " + e.what());
            throw;
        }
        if (!m)
            lost(during);
        last_.received += protocol::lineBytes(m->header) + m->binary.size();
        if (m->header.value("id", json()) != id)
            continue;
        const std::string ev = protocol::eventOf(m->header);
        if (ev == protocol::event::kStage) {
            if (onStage)
                onStage(protocol::stageOf(m->header));
            continue;
        }
        if (ev == protocol::event::kBuffer) {
            if (buffers) {
                const auto dtype = parseDType(m->header.value("dtype", std::string("u8"))).value_or(DType::U8);
                const std::size_t count = m->header.value("count", std::size_t(0));
                HostBuffer b(dtype, count);
                if (b.byteSize() != m->binary.size())
                    throw Error(ErrorCategory::Protocol, "buffer frame \"" + m->header.value("name", std::string())
                                                             + "\" has the wrong size");
                std::memcpy(b.data(), m->binary.data(), m->binary.size());
                (*buffers)[m->header.value("name", std::string())] = std::move(b);
            }
            continue;
        }
        total_.sent += last_.sent;
        total_.received += last_.received;
        return m->header;
    }
}

RunResult ServeClient::run(const Document& doc, const std::string& device, const std::string& returnBuffers,
                           const StageCallback& onStage, const RunOverrides& overrides)
{
    EncodedJob job = JobCodec::encode(doc, protocol::op::kRun, nextId_++, device);
    job.header["return_buffers"] = returnBuffers;
    writeRunOptions(job.header, overrides);
    std::map<std::string, HostBuffer> buffers;
    const json reply = roundTrip(job.header, job.payload, onStage, &buffers);
    if (!reply.value("ok", false)) {
        const json err = reply.value("error", json::object());
        throw Error(ErrorCategory::Protocol, err.value("category", std::string("error")) + ": "
                                                 + err.value("message", std::string()));
    }
    RunResult r = runResultFromJson(reply.value("result", json::object()));
    for (BufferResult& b : r.buffers)
        if (auto it = buffers.find(b.name); it != buffers.end())
            b.data = std::move(it->second);
    return r;
}

CompileResult ServeClient::compile(const Document& doc, const std::string& device)
{
    EncodedJob job = JobCodec::encode(doc, protocol::op::kCompile, nextId_++, device);
    const json reply = roundTrip(job.header, job.payload, {}, nullptr);
    if (!reply.value("ok", false)) {
        const json err = reply.value("error", json::object());
        throw Error(ErrorCategory::Protocol, err.value("category", std::string("error")) + ": "
                                                 + err.value("message", std::string()));
    }
    return compileResultFromJson(reply.value("result", json::object()));
}

} // namespace kw
