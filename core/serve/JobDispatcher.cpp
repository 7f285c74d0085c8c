#include "serve/JobDispatcher.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "cuda/CudaBackend.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "doc/DocumentReader.hpp"
#include "run/DeviceSelector.hpp"
#include "run/PrintfCapture.hpp"
#include "run/RunEngine.hpp"
#include "run/RunResult.hpp"
#include "serve/ProcessRestart.hpp"
#include "util/Error.hpp"

#include <chrono>
#include <filesystem>
#include <thread>

namespace kw {

using nlohmann::json;

namespace {

constexpr int kProtocolVersion = 1;

json errorJson(const std::exception& e)
{
    if (const auto* ke = dynamic_cast<const Error*>(&e))
        return {{"category", toString(ke->category())},
                {"message", e.what()},
                {"path", ke->path() ? json(*ke->path()) : json(nullptr)},
                {"line", ke->line() ? json(*ke->line()) : json(nullptr)}};
    return {{"category", "internal"}, {"message", e.what()}, {"path", nullptr}, {"line", nullptr}};
}

// The document travels inline (an object or its JSON text); files it names are
// resolved against base_dir on the runner's side.
Document documentOf(const json& request)
{
    auto it = request.find("document");
    if (it == request.end())
        throw Error(ErrorCategory::Protocol, "request has no \"document\"");
    const std::string text = it->is_string() ? it->get<std::string>() : it->dump();
    std::filesystem::path where;
    if (auto b = request.find("base_dir"); b != request.end() && b->is_string() && !b->get<std::string>().empty())
        where = std::filesystem::path(b->get<std::string>()) / "document.kwb";
    return DocumentReader::readString(text, where);
}

// All launches of a job plus a minute, saturated: a huge time_limit_s means no limit.
std::chrono::milliseconds jobLimit(const RunSettings& run)
{
    const double ms = run.timeLimitSeconds * 1000.0 * (3.0 + double(run.warmup) + double(run.repeats)) + 60000.0;
    const double most = double(std::chrono::milliseconds::max().count() / 2);
    return std::chrono::milliseconds(ms > 0 && ms < most ? static_cast<long long>(ms) : static_cast<long long>(most));
}

std::string deviceOf(const json& request)
{
    auto it = request.find("device");
    return it != request.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

JobDispatcher::JobDispatcher(MessageChannel& channel, PrintfCapture* printf)
    : channel_(channel)
    , printf_(printf)
    , compiler_(std::make_unique<Compiler>(ProgramCache::openDefault()))
{
}

JobDispatcher::~JobDispatcher() = default;

void JobDispatcher::event(const json& id, json body)
{
    body["v"] = kProtocolVersion;
    body["id"] = id;
    channel_.write(std::move(body));
}

void JobDispatcher::replyError(const json& id, const std::exception& e)
{
    channel_.write({{"v", kProtocolVersion}, {"id", id}, {"ok", false}, {"error", errorJson(e)}});
}

Backend& JobDispatcher::backend(const std::string& device)
{
    const DeviceSpec spec = DeviceSelector::parse(device);
    auto& slot = backends_[spec.str()];
    if (!slot)
        slot = DeviceSelector::open(spec, printf_);
    return *slot;
}

json JobDispatcher::hello()
{
    json list = json::array();
    for (const auto& d : DeviceSelector::list())
        list.push_back(toJson(d));
    return {{"protocol", kProtocolVersion}, {"version", KW_VERSION}, {"devices", list}};
}

json JobDispatcher::devices()
{
    json list = json::array();
    for (const auto& d : DeviceSelector::list())
        list.push_back(toJson(d));
    return {{"devices", list},
            {"driver", DriverApi::available() ? json(nullptr) : json(DriverApi::unavailableReason())}};
}

json JobDispatcher::compile(const json& request)
{
    const Document doc = documentOf(request);
    CompileRequest req = RunEngine::compileRequest(doc);
    const std::string device = deviceOf(request);
    if (!device.empty())
        req.options.arch = backend(device).compileArch();
    else if (req.options.arch.empty() && CudaDevices::count() > 0)
        req.options.arch = backend("cuda:0").compileArch();
    // else the document's arch, or PTX for the default virtual arch: no device needed.
    // NVRTC stuck on a hostile source: reply with an error and replace the process.
    const json id = request.value("id", json(nullptr));
    watchdog_.arm(std::chrono::milliseconds(120000), [this, id] {
        channel_.writeLast({{"v", kProtocolVersion},
                            {"id", id},
                            {"ok", false},
                            {"error",
                             {{"category", "nvrtc"},
                              {"message", "the compiler did not finish within 120 s; the runner was restarted"},
                              {"path", nullptr},
                              {"line", nullptr}}}});
        ProcessRestart::replaceProcess(channel_.unread(), printf_);
    });
    CompileResult result;
    try {
        result = compiler_->compile(req);
    } catch (...) {
        if (!watchdog_.disarm())
            for (;;) std::this_thread::sleep_for(std::chrono::hours(1)); // the watchdog is replacing us
        throw;
    }
    if (!watchdog_.disarm())
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    return toJson(result, true);
}

JobDispatcher::Next JobDispatcher::run(const json& request, const json& id)
{
    const Document doc = documentOf(request);
    Backend& be = backend(deviceOf(request));
    auto* cuda = dynamic_cast<CudaBackend*>(&be);
    if (cuda && !cuda->canUsePrintfBuffer(doc.run.printfBufferBytes)) {
        // The FIFO size is fixed after the first launch of a context: serve this
        // request again in a fresh process.
        replay_ = request.dump() + "\n";
        return Next::Restart;
    }
    const std::string returnBuffers = request.value("return_buffers", std::string("outputs"));
    if (returnBuffers != "outputs" && returnBuffers != "all" && returnBuffers != "none")
        throw Error(ErrorCategory::Protocol, "return_buffers must be \"outputs\", \"all\" or \"none\"");

    // A backstop for hangs outside the backend's own time-limit polling: reply with
    // a timeout fault and replace the process.
    const auto limit = jobLimit(doc.run);
    const DeviceInfo device = be.device();
    watchdog_.arm(limit, [this, id, device, limit] {
        RunResult timedOut;
        timedOut.device = device;
        Fault f;
        f.kind = FaultKind::Timeout;
        f.message = "the job did not finish within " + std::to_string(limit.count() / 1000)
                    + " s; the runner was restarted";
        timedOut.fault = f;
        // The main thread is stuck in the job: it must not write after this reply.
        channel_.writeLast({{"v", kProtocolVersion}, {"id", id}, {"ok", true}, {"result", toJson(timedOut)}});
        ProcessRestart::replaceProcess(channel_.unread(), printf_);
    });

    RunEngine engine(*compiler_, be, &preparedInputs_);
    engine.onStage([&](const std::string& stage) { event(id, {{"event", "stage"}, {"stage", stage}}); });
    RunResult result;
    try {
        result = engine.run(doc);
    } catch (...) {
        if (!watchdog_.disarm())
            for (;;) std::this_thread::sleep_for(std::chrono::hours(1)); // the watchdog is replacing us
        throw;
    }
    if (!watchdog_.disarm())
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));

    if (returnBuffers != "none" && !result.fault) {
        event(id, {{"event", "stage"}, {"stage", "download"}});
        for (const auto& b : result.buffers) {
            if (returnBuffers == "outputs" && b.direction == Direction::In)
                continue;
            channel_.write({{"v", kProtocolVersion},
                            {"id", id},
                            {"event", "buffer"},
                            {"name", b.name},
                            {"dtype", toString(b.data.dtype())},
                            {"count", b.data.count()},
                            {"shape", b.shape}},
                           b.data.data(), b.data.byteSize());
        }
    }
    channel_.write({{"v", kProtocolVersion}, {"id", id}, {"ok", true}, {"result", toJson(result)}});
    return cuda && cuda->poisoned() ? Next::Restart : Next::Continue;
}

JobDispatcher::Next JobDispatcher::handle(const Message& request)
{
    const json& h = request.header;
    const json id = h.value("id", json(nullptr));
    replay_.clear();
    try {
        if (h.value("v", 0) != kProtocolVersion)
            throw Error(ErrorCategory::Protocol, "unsupported protocol version (this runner speaks \"v\": 1)");
        const std::string op = h.value("op", std::string());
        json result;
        if (op == "hello")
            result = hello();
        else if (op == "devices")
            result = devices();
        else if (op == "compile")
            result = compile(h);
        else if (op == "run")
            return run(h, id);
        else if (op == "shutdown")
            result = json::object();
        else
            throw Error(ErrorCategory::Protocol, "unknown op \"" + op + "\"");
        channel_.write({{"v", kProtocolVersion}, {"id", id}, {"ok", true}, {"result", result}});
        return op == "shutdown" ? Next::Exit : Next::Continue;
    } catch (const std::exception& e) {
        replyError(id, e);
        for (const auto& [name, be] : backends_)
            if (auto* cuda = dynamic_cast<CudaBackend*>(be.get()); cuda && cuda->poisoned())
                return Next::Restart;
        return Next::Continue;
    }
}

} // namespace kw
