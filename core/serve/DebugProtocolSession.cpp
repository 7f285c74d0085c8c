#include "serve/DebugProtocolSession.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "debug/DebugConsole.hpp"
#include "debug/DebugSession.hpp"
#include "serve/DebugReplyJson.hpp"
#include "serve/JobCodec.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"
#include "util/Paths.hpp"

#include <chrono>

namespace kw {

DebugProtocolSession::DebugProtocolSession(const Message& open)
    : compiler_(std::make_unique<Compiler>(ProgramCache::openDefault()))
{
    const Document doc = JobCodec::decode(open, JobCodec::jobsRootIn(userCacheDir()));
    debug::DebugOptions options;
    options.step = JsonField::get<std::string>(open.header, "step", {});
    const std::string check = JsonField::get<std::string>(open.header, "check", {});
    if (!check.empty()) {
        const auto tool = parseCheckTool(check);
        if (!tool)
            throw Error(ErrorCategory::Protocol, "check \"" + check + "\" is not a check");
        options.check = *tool;
    }
    // -G only when the client asks for it ("source_variables": true): its replies then carry
    // the variables in scope ("locals") and its expressions take their names. Without it,
    // the optimized code a run runs, read by its PTX registers.
    options.optimized = !JsonField::get<bool>(open.header, "source_variables", false);
    session_ = debug::DebugSession::fromDocument(doc, *compiler_, options);
    console_ = std::make_unique<debug::DebugConsole>(*session_);
}

DebugProtocolSession::~DebugProtocolSession() = default;

nlohmann::json DebugProtocolSession::handle(const Message& message, Events& /*events*/)
{
    const auto body = message.header.find("body");
    if (body == message.header.end() || !body->is_object() || !body->contains("command")
        || !(*body)["command"].is_string())
        throw Error(ErrorCategory::Protocol, "a debug session's message is {\"command\": \"...\"}");
    const std::string command = (*body)["command"].get<std::string>();
    // "slice_ms": a forward motion still running after that long stops there (a pause), so
    // that the client, between one slice and its next, can pause the launch: it sends the
    // motion again, or stops sending it. The schedule is kept, so the run is the same run.
    const int slice = JsonField::get<int>(*body, "slice_ms", 0);
    if (slice < 0 || slice > 3'600'000)
        throw Error(ErrorCategory::Protocol, "slice_ms is a number of milliseconds up to an hour");
    if (slice > 0) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(slice);
        session_->whileRunning([this, until] {
            if (std::chrono::steady_clock::now() >= until)
                session_->interrupt();
        });
    }
    struct Unslice {
        debug::DebugSession& s;
        bool on;
        ~Unslice()
        {
            if (!on)
                return;
            s.whileRunning({});
            s.takeInterrupt(); // asked after the motion's last slice: not the next motion's
        }
    } unslice{*session_, slice > 0};
    const std::string text = command == "where" ? console_->stopText(session_->stop()) : console_->execute(command);
    return DebugReplyJson(*session_, *console_).reply(command, text);
}

} // namespace kw
