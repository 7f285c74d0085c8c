#include "serve/JobDispatcher.hpp"

#include "serve/RunRequestOptions.hpp"
#include "serve/SanitizedRun.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "doc/DocumentReader.hpp"
#include "launch/PrintfCapture.hpp"
#include "launch/RunResult.hpp"
#include "run/ArchChoice.hpp"
#include "run/DeviceSelector.hpp"
#include "run/DevicesReport.hpp"
#include "run/RunEngine.hpp"
#include "run/VersionReport.hpp"
#include "serve/JobCodec.hpp"
#include "serve/ProcessRestart.hpp"
#include "serve/Protocol.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace kw {

using nlohmann::json;

namespace {

// All launches of a job plus a minute, saturated: a huge time_limit_s means no limit.
// KWB_RUNNER_WATCHDOG_MS (a whole number of milliseconds), when set, is every job's limit
// instead: a hard cap for a shared server, and how a test sees the watchdog fire
// without waiting a minute.
std::chrono::milliseconds jobLimit(const RunSettings& run)
{
    if (const char* fixed = std::getenv("KWB_RUNNER_WATCHDOG_MS")) {
        char* end = nullptr;
        const long long ms = std::strtoll(fixed, &end, 10);
        if (end != fixed && *end == '\0' && ms > 0)
            return std::chrono::milliseconds(ms);
    }
    const double ms = run.timeLimitSeconds * 1000.0 * (3.0 + double(run.warmup) + double(run.repeats)) + 60000.0;
    const double most = double(std::chrono::milliseconds::max().count() / 2);
    return std::chrono::milliseconds(ms > 0 && ms < most ? static_cast<long long>(ms) : static_cast<long long>(most));
}

std::string deviceOf(const json& request)
{
    auto it = request.find("device");
    return it != request.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The folder a decoded job's headers were written to (empty for a local client's job).
std::filesystem::path jobFolderOf(const Document& doc)
{
    return doc.attachedFiles ? doc.baseDir() : std::filesystem::path();
}

} // namespace

JobDispatcher::JobDispatcher(MessageChannel& channel, PrintfCapture* printf)
    : channel_(channel)
    , printf_(printf)
    , compiler_(std::make_unique<Compiler>(ProgramCache::openDefault()))
{
    // The runner lives as long as the window's document is edited: its recompiles reuse
    // NVRTC's precompiled headers.
    compiler_->keepWorkerWarm(true);
}

JobDispatcher::~JobDispatcher() = default;

void JobDispatcher::stage(const json& id, const std::string& name) { channel_.write(protocol::stageEvent(id, name)); }

void JobDispatcher::replyError(const json& id, const std::exception& e) { channel_.write(protocol::errorReply(id, e)); }

Backend& JobDispatcher::backend(const std::string& device)
{
    const DeviceSpec spec = DeviceSelector::parse(device);
    auto it = backends_.find(spec.str());
    // Only a backend that opened is kept: a device that cannot be opened (cuda:99, no
    // driver) leaves no empty entry for the error path and later requests to trip on.
    if (it == backends_.end())
        it = backends_.emplace(spec.str(), DeviceSelector::open(spec, printf_)).first;
    return *it->second;
}

json JobDispatcher::hello()
{
    return {{"protocol", protocol::kVersion},
            {"version", VersionReport::version()},
            {"devices", toJson(DeviceSelector::list())}};
}

json JobDispatcher::devices() { return toJson(DevicesReport::collect()); }

void JobDispatcher::disarmOrWait()
{
    // A watchdog that fired is replacing this process: write nothing more, just wait.
    if (!watchdog_.disarm())
        for (;;)
            std::this_thread::sleep_for(std::chrono::hours(1));
}

json JobDispatcher::compile(const Message& message)
{
    const json& request = message.header;
    const Document doc = JobCodec::decode(message, JobCodec::jobsRootIn(userCacheDir()));
    CompileRequest req = RunEngine::compileRequest(doc);
    const std::string device = deviceOf(request);
    // For the named device, the document's arch as it can run it (as a run compiles);
    // else the document's, else the first GPU's (through its backend, which the runs
    // that follow find warm), else PTX: no device needed.
    ArchChoice::Gpus gpus = ArchChoice::ofThisMachine();
    gpus.firstArch = [this] { return backend("cuda:0").compileArch(); };
    req.options.arch = ArchChoice::choose(device.empty() ? std::string() : backend(device).archFor(req.options.arch),
                                          req.options.arch, gpus);
    // NVRTC stuck on a hostile source: reply with an error and replace the process.
    const json id = request.value("id", json(nullptr));
    watchdog_.arm(std::chrono::milliseconds(120000), [this, id] {
        channel_.writeLast(protocol::errorReply(
            id, Error(ErrorCategory::Nvrtc, "the compiler did not finish within 120 s; the runner was restarted")));
        ProcessRestart::replaceProcess(channel_.unread(), printf_);
    });
    CompileResult result;
    try {
        result = compiler_->compile(req);
    } catch (...) {
        disarmOrWait();
        throw;
    }
    disarmOrWait();
    JobCodec::relativize(result, jobFolderOf(doc));
    return toJson(result, true);
}

JobDispatcher::Next JobDispatcher::run(Message& message, const json& id)
{
    const json& request = message.header;
    // The payload's first file becomes its buffer's data: taken, not copied.
    const Document doc = JobCodec::decodeTakingPayload(message, JobCodec::jobsRootIn(userCacheDir()));
    Backend& be = backend(deviceOf(request));
    if (!be.canUsePrintfBuffer(doc.run.printfBufferBytes)) {
        // The FIFO size is fixed after the first launch of a context: serve this
        // request again in a fresh process.
        const HostBytes payload = JobCodec::payloadOf(request, doc);
        replay_ = protocol::encode(request, payload.data(), payload.size());
        return Next::Restart;
    }
    const std::string returnBuffers = request.value("return_buffers", std::string("outputs"));
    if (returnBuffers != "outputs" && returnBuffers != "all" && returnBuffers != "none")
        throw Error(ErrorCategory::Protocol, "return_buffers must be \"outputs\", \"all\" or \"none\"");

    // A backstop for hangs outside the backend's own time-limit polling: reply with
    // a timeout fault and replace the process.
    const RunOverrides overrides = readRunOptions(request);
    // A checked run on a GPU runs in a child under compute-sanitizer, slower than the document says.
    const auto limit = overrides.check && *overrides.check != CheckTool::None
        ? std::max(jobLimit(doc.run), SanitizedRun::jobLimit(doc.run, overrides))
        : jobLimit(doc.run);
    const DeviceInfo device = be.device();
    watchdog_.arm(limit, [this, id, device, limit] {
        RunResult timedOut;
        timedOut.device = device;
        Fault f;
        f.kind = FaultKind::Timeout;
        f.message = fmt::format("the job did not finish within {:g} s; the runner was restarted",
                                double(limit.count()) / 1000);
        timedOut.fault = f;
        // The main thread is stuck in the job: it must not write after this reply.
        channel_.writeLast(protocol::reply(id, toJson(timedOut)));
        ProcessRestart::replaceProcess(channel_.unread(), printf_);
    });

    RunEngine engine(*compiler_, be, &preparedInputs_);
    engine.onStage([&](const std::string& name) { stage(id, name); });
    engine.onStep([&](const std::string& path) { channel_.write(protocol::stepEvent(id, path)); });
    SanitizedRun sanitized;
    engine.setExternalCheck(&sanitized);
    RunResult result;
    try {
        result = engine.run(doc, overrides);
    } catch (...) {
        disarmOrWait();
        throw;
    }
    disarmOrWait();

    const auto frame = [&](const BufferResult& b, const std::string& step) {
        json header
            = {{"name", b.name}, {"dtype", toString(b.data.dtype())}, {"count", b.data.count()}, {"shape", b.shape}};
        if (!step.empty())
            header["step"] = step;
        channel_.write(protocol::eventMessage(id, protocol::event::kBuffer, std::move(header)), b.data.data(),
                       b.data.byteSize());
    };
    const bool afterSteps
        = std::any_of(result.steps.begin(), result.steps.end(), [](const StepResult& s) { return !s.buffers.empty(); });
    if ((returnBuffers != "none" && !result.fault) || afterSteps) {
        stage(id, protocol::stage::kDownload);
        if (returnBuffers != "none" && !result.fault)
            for (const auto& b : result.buffers)
                if (returnBuffers == "all" || b.direction != Direction::In)
                    frame(b, {});
        // Asked for by name (step_buffers): every buffer, whatever return_buffers says.
        for (const StepResult& s : result.steps)
            for (const BufferResult& b : s.buffers)
                frame(b, s.path);
    }
    JobCodec::relativize(result.compile, jobFolderOf(doc));
    channel_.write(protocol::reply(id, toJson(result)));
    return be.usable() ? Next::Continue : Next::Restart;
}

JobDispatcher::Next JobDispatcher::handle(Message& request)
{
    const json& h = request.header;
    const json id = h.value("id", json(nullptr));
    replay_.clear();
    try {
        if (protocol::versionOf(h) != protocol::kVersion)
            throw Error(ErrorCategory::Protocol, protocol::versionMismatch(protocol::kVersion, protocol::versionOf(h)));
        const std::string op = protocol::opOf(h);
        json result;
        if (op == protocol::op::kHello)
            result = hello();
        else if (op == protocol::op::kDevices)
            result = devices();
        else if (op == protocol::op::kCompile)
            result = compile(request);
        else if (op == protocol::op::kRun)
            return run(request, id);
        else if (op == protocol::op::kOpen)
            result = sessions_.open(request);
        else if (op == protocol::op::kMessage)
            result = sessions_.message(request, channel_);
        else if (op == protocol::op::kClose)
            result = sessions_.close(request);
        else if (op == protocol::op::kShutdown)
            result = json::object();
        else
            throw Error(ErrorCategory::Protocol, "unknown op \"" + op + "\"");
        channel_.write(protocol::reply(id, std::move(result)));
        return op == protocol::op::kShutdown ? Next::Exit : Next::Continue;
    } catch (const std::exception& e) {
        replyError(id, e);
        for (const auto& [name, be] : backends_)
            if (be && !be->usable())
                return Next::Restart;
        return Next::Continue;
    }
}

} // namespace kw
