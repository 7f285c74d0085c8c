#include "debug/DapServer.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "debug/DapLanes.hpp"
#include "debug/DapOutput.hpp"
#include "debug/DapSources.hpp"
#include "debug/DapStops.hpp"
#include "debug/DapVariables.hpp"
#include "debug/DebugConsole.hpp"
#include "doc/DocumentReader.hpp"
#include "run/ExitCode.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>

namespace kw::debug {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw Error(ErrorCategory::Usage, why); }

// A line of the Debug Console that begins with a command of the command language is
// that command; `lane` and `warp` alone are expressions (the lane's and warp's numbers).
bool consoleCommand(const std::string& text)
{
    const std::string first = text.substr(0, text.find(' '));
    if (first == "lane" || first == "warp")
        return first.size() < text.size();
    return DebugConsole::isCommand(first);
}

// A hit condition as DebugSession counts hits: "N" or ">= N" stop from the Nth hit on
// (N - 1 hits go by), "> N" after the Nth.
std::uint64_t ignoredHits(const std::string& condition)
{
    std::string_view text = trim(condition);
    bool after = false;
    if (text.starts_with(">="))
        text = trim(text.substr(2));
    else if (text.starts_with(">")) {
        text = trim(text.substr(1));
        after = true;
    }
    std::uint64_t n = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        refuse(fmt::format("hit condition \"{}\": give N (or >= N: from the Nth hit on) or > N", condition));
    return after ? n : (n > 0 ? n - 1 : 0);
}

int frameId(std::uint32_t warp, std::size_t frame) { return int((warp << 8) | std::uint32_t(frame)) + 1; }

} // namespace

DapServer::DapServer(Send send, DapLaunchDefaults defaults)
    : send_(std::move(send))
    , defaults_(std::move(defaults))
{
}

DapServer::~DapServer() = default;

void DapServer::interrupt()
{
    if (DebugSession* s = live_.load())
        s->interrupt();
}

DebugSession& DapServer::session()
{
    if (!session_)
        refuse("no launch yet: the launch request starts the debugger");
    return *session_;
}

void DapServer::event(const std::string& name, nlohmann::json body)
{
    nlohmann::json e = {{"seq", seq_++}, {"type", "event"}, {"event", name}};
    if (!body.is_null())
        e["body"] = std::move(body);
    send_(e);
}

void DapServer::queueEvent(const std::string& name, nlohmann::json body)
{
    events_.push_back({{"event", name}, {"body", std::move(body)}});
}

void DapServer::respond(const nlohmann::json& request, bool success, nlohmann::json body, const std::string& message)
{
    // The request's own seq, when it is a whole number: a response to a malformed request
    // must not fail on the same malformation.
    std::int64_t requestSeq = 0;
    if (request.is_object())
        if (const auto seq = request.find("seq"); seq != request.end() && seq->is_number_integer())
            requestSeq = seq->get<std::int64_t>();
    nlohmann::json r = {{"seq", seq_++},
                        {"type", "response"},
                        {"request_seq", requestSeq},
                        {"success", success},
                        {"command", request.is_object() ? request.value("command", nlohmann::json("")) : ""}};
    if (!r["command"].is_string())
        r["command"] = "";
    if (!success) {
        r["message"] = message;
        r["body"] = {{"error", {{"id", 1}, {"format", message}, {"showUser", true}}}};
    } else if (!body.is_null())
        r["body"] = std::move(body);
    send_(r);
}

void DapServer::handleBody(const std::string& body)
{
    nlohmann::json message = nlohmann::json::parse(body, nullptr, false);
    if (message.is_discarded()) {
        respond(nlohmann::json::object(), false, nullptr,
                fmt::format("a message that is not JSON ({} bytes): not answered otherwise", body.size()));
        return;
    }
    handle(message);
}

void DapServer::handle(const nlohmann::json& message)
{
    if (!message.is_object()) {
        respond(nlohmann::json::object(), false, nullptr, "a message that is not a JSON object");
        return;
    }
    const auto type = message.find("type");
    if (type != message.end() && type->is_string() && *type != "request")
        return; // a response or an event from the client: this adapter asks nothing of it
    const auto command = message.find("command");
    if (type == message.end() || command == message.end() || !command->is_string()) {
        respond(message, false, nullptr, "not a request: \"type\": \"request\" and a \"command\" string are needed");
        return;
    }
    events_.clear();
    try {
        const auto args = message.find("arguments");
        const nlohmann::json body
            = dispatch(*command, args != message.end() && args->is_object() ? *args : nlohmann::json::object());
        respond(message, true, body);
    } catch (const std::exception& e) {
        events_.clear();
        pending_.reset();
        respond(message, false, nullptr, e.what());
    }
    for (auto& e : std::exchange(events_, {}))
        event(e["event"], std::move(e["body"]));
    if (pending_)
        runPending();
}

void DapServer::runPending()
{
    const Motion motion = *std::exchange(pending_, std::nullopt);
    try {
        stopped(session_->resume(motion));
    } catch (const std::exception& e) { // answered already: the client reads why, and the stop it stays at
        events_.clear();
        queueEvent("output", {{"category", "stderr"}, {"output", std::string(e.what()) + "\n"}});
        stopped(session_->stop());
    }
    for (auto& e : std::exchange(events_, {}))
        event(e["event"], std::move(e["body"]));
}

void DapServer::queueOutput()
{
    for (nlohmann::json& body : output_->take())
        queueEvent("output", std::move(body));
}

nlohmann::json DapServer::dispatch(const std::string& command, const nlohmann::json& args)
{
    if (command == "initialize")
        return initialize(args);
    if (command == "launch")
        return launch(args);
    if (command == "configurationDone")
        return configurationDone();
    if (command == "setBreakpoints")
        return setBreakpoints(args);
    if (command == "setExceptionBreakpoints") // faults and findings always stop
        return {{"breakpoints", nlohmann::json::array()}};
    if (command == "dataBreakpointInfo")
        return dataBreakpointInfo(args);
    if (command == "setDataBreakpoints")
        return setDataBreakpoints(args);
    if (command == "threads")
        return threads();
    if (command == "stackTrace")
        return stackTrace(args);
    if (command == "scopes")
        return scopes(args);
    if (command == "variables")
        return variables(args);
    if (command == "evaluate")
        return evaluate(args);
    if (command == "source")
        return source(args);
    if (command == "lanes") // the adapter's own request: the warp's lanes as a table
        return lanes(args);
    if (command == "continue")
        return resume(args, Motion::Continue);
    if (command == "next")
        return resume(args, Motion::Next);
    if (command == "stepIn")
        return resume(args, Motion::Step);
    if (command == "stepOut")
        return resume(args, Motion::Finish);
    if (command == "stepBack")
        return resume(args, Motion::ReverseStep);
    if (command == "reverseContinue")
        return resume(args, Motion::ReverseContinue);
    if (command == "pause") {
        // interrupt() came first (the reader saw the request): the motion it stopped has said
        // so. Otherwise nothing ran, and the stop is repeated as the pause's.
        DebugSession& s = session();
        if (s.takeInterrupt() || s.stop().reason != StopReason::Paused) {
            stopped(s.stop());
            events_.back()["body"]["reason"] = "pause";
        }
        return nullptr;
    }
    if (command == "terminate")
        return terminate();
    if (command == "disconnect") {
        done_ = true;
        return nullptr;
    }
    refuse(fmt::format("unknown command \"{}\"", command));
}

nlohmann::json DapServer::initialize(const nlohmann::json& args)
{
    linesStartAt1_ = JsonField::get<bool>(args, "linesStartAt1", true);
    columnsStartAt1_ = JsonField::get<bool>(args, "columnsStartAt1", true);
    return {
        {"supportsConfigurationDoneRequest", true},
        {"supportsConditionalBreakpoints", true},
        {"supportsHitConditionalBreakpoints", true},
        {"supportsStepBack", true},
        {"supportsDataBreakpoints", true},
        {"supportsEvaluateForHovers", true},
        {"supportsSteppingGranularity", true},
        {"supportsTerminateRequest", true},
        {"supportTerminateDebuggee", false},
        {"supportsExceptionInfoRequest", false},
        {"exceptionBreakpointFilters", nlohmann::json::array()},
    };
}

nlohmann::json DapServer::launch(const nlohmann::json& args)
{
    if (session_)
        refuse("launch: the launch has begun already");
    std::string document = JsonField::get<std::string>(args, "program", "");
    if (document.empty())
        document = JsonField::get<std::string>(args, "document", defaults_.document);
    if (document.empty())
        refuse("launch: no document: give \"program\" (a .kwb file) in the launch configuration");
    std::filesystem::path path(document);
    const std::string cwd = JsonField::get<std::string>(args, "cwd", "");
    if (path.is_relative() && !cwd.empty())
        path = std::filesystem::path(cwd) / path;
    const bool trust = JsonField::get<bool>(args, "trust", defaults_.trust);
    DebugOptions options;
    const std::string check = JsonField::get<std::string>(args, "check", defaults_.check);
    if (!check.empty()) {
        const auto tool = parseCheckTool(check);
        if (!tool)
            refuse(fmt::format("check \"{}\": not a check (memcheck, racecheck, initcheck, synccheck)", check));
        options.check = *tool;
    }
    const auto step = args.find("step");
    options.step = step == args.end() || step->is_null() ? defaults_.step
        : step->is_number_unsigned()                     ? std::to_string(step->get<std::uint64_t>())
                                                         : JsonField::as<std::string>(*step, "step");
    stopOnEntry_ = JsonField::get<bool>(args, "stopOnEntry", false);
    options.optimized = JsonField::get<bool>(args, "optimized", false); // as kwb-run debug --optimized

    const Document doc = DocumentReader::readFile(path.string(), trust ? Trust::Trusted : Trust::Untrusted);
    compiler_ = std::make_unique<Compiler>(ProgramCache::openDefault());
    session_ = DebugSession::fromDocument(doc, *compiler_, options);
    console_ = std::make_unique<DebugConsole>(*session_);
    sources_ = std::make_unique<DapSources>(doc.baseDir(), doc.sourceFile, doc.sourceName(), doc.source);
    variables_ = std::make_unique<DapVariables>(*session_);
    output_ = std::make_unique<DapOutput>(*session_);
    live_.store(session_.get());
    // A long motion shows what the kernel prints as it runs, a few times a second.
    session_->whileRunning([this] {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastOutput_ < std::chrono::milliseconds(100))
            return;
        lastOutput_ = now;
        for (nlohmann::json& body : output_->take())
            event("output", std::move(body));
    });
    for (const std::string& w : session_->warnings())
        queueEvent("output", {{"category", "console"}, {"output", "warning: " + w + "\n"}});
    queueEvent("initialized", nullptr);
    return nullptr;
}

nlohmann::json DapServer::configurationDone()
{
    DebugSession& s = session();
    if (stopOnEntry_)
        stopped(s.stop());
    else
        pending_ = Motion::Continue;
    return nullptr;
}

void DapServer::stopped(const Stop& s)
{
    variables_->reset();
    std::vector<int> hits;
    if (s.reason == StopReason::Breakpoint && breakpointIds_.contains(s.breakpoint))
        hits.push_back(breakpointIds_[s.breakpoint]);
    if (s.reason == StopReason::Watch && s.watch && watchIds_.contains(s.watch->watch))
        hits.push_back(watchIds_[s.watch->watch]);
    // The command language's words for the stop: "[157] breakpoint 1 hit by lane 0".
    std::string headline = console_->stopText(s);
    headline = headline.substr(0, headline.find('\n'));
    if (headline.starts_with('['))
        headline = std::string(trim(headline.substr(headline.find(']') + 1)));
    queueOutput();
    if (s.reason == StopReason::Finished)
        queueEvent("output",
                   {{"category", "console"},
                    {"output",
                     "the launch has finished: step back or reverse-continue go back; stop ends "
                     "the session\n"}});
    queueEvent("stopped", DapStops::stoppedBody(s, headline, session_->focus(), hits));
}

nlohmann::json DapServer::setBreakpoints(const nlohmann::json& args)
{
    DebugSession& s = session();
    const nlohmann::json source = args.value("source", nlohmann::json::object());
    const std::string key = sources_->key(source);
    for (int id : fileBreakpoints_[key]) {
        breakpointIds_.erase(id);
        try {
            s.removeBreakpoint(id);
        } catch (const Error&) { // deleted from the Debug Console already
        }
    }
    fileBreakpoints_[key].clear();
    nlohmann::json out = nlohmann::json::array();
    const auto list = args.find("breakpoints");
    if (list == args.end() || !list->is_array())
        return {{"breakpoints", out}};
    for (const nlohmann::json& b : *list) {
        const int asked = JsonField::get<int>(b, "line", 0);
        try {
            BreakpointSpec spec;
            spec.file = sources_->breakpointFile(source);
            spec.line = std::uint32_t(std::max(1, asked + (linesStartAt1_ ? 0 : 1)));
            spec.condition = JsonField::get<std::string>(b, "condition", "");
            const std::string hit = JsonField::get<std::string>(b, "hitCondition", "");
            if (!hit.empty())
                spec.ignore = ignoredHits(hit);
            const BreakpointInfo info = s.addBreakpoint(spec);
            fileBreakpoints_[key].push_back(info.id);
            const int id = nextId_++;
            breakpointIds_[info.id] = id;
            out.push_back(
                {{"id", id}, {"verified", true}, {"line", line(info.line)}, {"source", sources_->source(info.file)}});
        } catch (const std::exception& e) {
            out.push_back({{"verified", false}, {"line", asked}, {"message", e.what()}});
        }
    }
    return {{"breakpoints", out}};
}

void DapServer::announceConsoleBreakpoints(const std::vector<BreakpointInfo>& before)
{
    const std::vector<BreakpointInfo> now = session_->breakpoints();
    for (const BreakpointInfo& b : now) {
        if (breakpointIds_.contains(b.id))
            continue;
        const int id = nextId_++;
        breakpointIds_[b.id] = id;
        const nlohmann::json source = sources_->source(b.file);
        // The file's next setBreakpoints lists it (the editor shows it now) and replaces it.
        fileBreakpoints_[sources_->key(source)].push_back(b.id);
        queueEvent("breakpoint",
                   {{"reason", "new"},
                    {"breakpoint", {{"id", id}, {"verified", true}, {"line", line(b.line)}, {"source", source}}}});
    }
    for (const BreakpointInfo& b : before) {
        const bool kept = std::any_of(now.begin(), now.end(), [&](const BreakpointInfo& n) { return n.id == b.id; });
        const auto known = breakpointIds_.find(b.id);
        if (kept || known == breakpointIds_.end())
            continue;
        queueEvent("breakpoint", {{"reason", "removed"}, {"breakpoint", {{"id", known->second}, {"verified", false}}}});
        breakpointIds_.erase(known);
        for (auto& [file, ids] : fileBreakpoints_)
            std::erase(ids, b.id);
    }
}

nlohmann::json DapServer::dataBreakpointInfo(const nlohmann::json& args)
{
    session();
    const auto w = variables_->watchable(JsonField::get<int>(args, "variablesReference", 0),
                                         JsonField::get<std::string>(args, "name", ""));
    if (!w)
        return {{"dataId", nullptr},
                {"description", "only a buffer's element or a word of shared memory can be watched"}};
    const nlohmann::json id
        = {{"buffer", w->first.buffer}, {"index", w->first.index}, {"type", toString(w->first.type)}};
    return {
        {"dataId", id.dump()}, {"description", w->second}, {"accessTypes", {"write", "read"}}, {"canPersist", false}};
}

nlohmann::json DapServer::setDataBreakpoints(const nlohmann::json& args)
{
    DebugSession& s = session();
    for (int id : dataWatches_) {
        watchIds_.erase(id);
        try {
            s.removeWatch(id);
        } catch (const Error&) {
        }
    }
    dataWatches_.clear();
    nlohmann::json out = nlohmann::json::array();
    const auto list = args.find("breakpoints");
    if (list == args.end() || !list->is_array())
        return {{"breakpoints", out}};
    for (const nlohmann::json& b : *list) {
        try {
            const nlohmann::json id
                = nlohmann::json::parse(JsonField::get<std::string>(b, "dataId", ""), nullptr, false);
            if (!id.is_object())
                refuse("dataId: not one that dataBreakpointInfo gave");
            WatchSpec spec;
            spec.buffer = JsonField::get<std::string>(id, "buffer", "");
            spec.index = JsonField::get<std::uint64_t>(id, "index", 0);
            spec.type = parseDType(JsonField::get<std::string>(id, "type", "u32")).value_or(DType::U32);
            const std::string access = JsonField::get<std::string>(b, "accessType", "write");
            if (access == "readWrite")
                refuse("a data breakpoint watches writes or reads: set one of each");
            if (access != "write" && access != "read")
                refuse(fmt::format("accessType \"{}\": write or read", access));
            spec.reads = access == "read";
            if (!JsonField::get<std::string>(b, "condition", "").empty()
                || !JsonField::get<std::string>(b, "hitCondition", "").empty())
                refuse("a data breakpoint takes no condition: it stops at every write (or read)");
            const WatchInfo info = s.addWatch(spec);
            dataWatches_.push_back(info.id);
            const int dapId = nextId_++;
            watchIds_[info.id] = dapId;
            out.push_back({{"id", dapId}, {"verified", true}});
        } catch (const std::exception& e) {
            out.push_back({{"verified", false}, {"message", e.what()}});
        }
    }
    return {{"breakpoints", out}};
}

nlohmann::json DapServer::threads()
{
    DebugSession& s = session();
    nlohmann::json out = nlohmann::json::array();
    const std::uint64_t block = s.focus().block;
    for (std::uint32_t w = 0; w < s.warpsPerBlock(); ++w)
        out.push_back({{"id", DapStops::threadId(w)}, {"name", fmt::format("block {} warp {}", block, w)}});
    return {{"threads", out}};
}

void DapServer::focusThread(const nlohmann::json& args)
{
    const int thread = JsonField::get<int>(args, "threadId", 0);
    if (thread >= 1)
        session().focusWarp(std::uint32_t(thread - 1));
}

void DapServer::focusFrame(const nlohmann::json& args)
{
    const int frame = JsonField::get<int>(args, "frameId", 0);
    if (frame >= 1)
        session().focusWarp(std::uint32_t(frame - 1) >> 8);
}

nlohmann::json DapServer::stackTrace(const nlohmann::json& args)
{
    DebugSession& s = session();
    focusThread(args);
    nlohmann::json frames = nlohmann::json::array();
    if (s.warp().done) // its lanes have all exited: no instruction, no frame
        return {{"stackFrames", frames}, {"totalFrames", 0}};
    const std::vector<Frame> all = s.backtrace();
    const std::size_t start = JsonField::get<std::size_t>(args, "startFrame", 0);
    std::size_t levels = JsonField::get<std::size_t>(args, "levels", 0);
    if (levels == 0)
        levels = all.size();
    for (std::size_t i = start; i < all.size() && i - start < levels; ++i) {
        const Frame& f = all[i];
        nlohmann::json frame = {{"id", frameId(s.focus().warp, i)},
                                {"name", f.function},
                                {"line", f.where.line ? line(f.where.line) : 0},
                                {"column", columnsStartAt1_ ? 1 : 0}};
        if (f.where.line)
            frame["source"] = sources_->source(f.where.file);
        if (i == 0)
            frame["name"] = fmt::format("{} (pc {}: {})", f.function, f.where.pc, f.where.instruction);
        frames.push_back(std::move(frame));
    }
    return {{"stackFrames", frames}, {"totalFrames", all.size()}};
}

nlohmann::json DapServer::scopes(const nlohmann::json& args)
{
    session();
    focusFrame(args);
    return {{"scopes", variables_->scopes()}};
}

nlohmann::json DapServer::variables(const nlohmann::json& args)
{
    session();
    return {{"variables",
             variables_->variables(JsonField::get<int>(args, "variablesReference", 0),
                                   JsonField::get<std::size_t>(args, "start", 0),
                                   JsonField::get<std::size_t>(args, "count", 0))}};
}

nlohmann::json DapServer::evaluate(const nlohmann::json& args)
{
    DebugSession& s = session();
    const std::string expression(trim(JsonField::get<std::string>(args, "expression", "")));
    const std::string context = JsonField::get<std::string>(args, "context", "");
    focusFrame(args);
    if (context == "repl" && consoleCommand(expression)) {
        if (expression == "quit" || expression == "q")
            refuse("quit: the client's stop button ends the session");
        const Stop before = s.stop();
        const Focus focus = s.focus();
        const std::vector<BreakpointInfo> breakpoints = s.breakpoints();
        std::string text = console_->execute(expression);
        if (text.starts_with("error: "))
            refuse(std::string(trim(text.substr(7))));
        announceConsoleBreakpoints(breakpoints);
        const Stop& after = s.stop();
        const Focus now = s.focus();
        // A motion or a change of focus from the console: the client shows the new place.
        if (after.position != before.position || after.reason != before.reason || now.block != focus.block
            || now.warp != focus.warp || now.lane != focus.lane)
            stopped(after);
        if (text.ends_with('\n'))
            text.pop_back();
        return {{"result", text}, {"variablesReference", 0}};
    }
    if (expression.empty())
        refuse("evaluate: an empty expression");
    return variables_->evaluate(expression);
}

nlohmann::json DapServer::lanes(const nlohmann::json& args)
{
    DebugSession& s = session();
    focusThread(args);
    std::vector<std::string> expressions;
    const auto list = args.find("expressions");
    if (list != args.end() && !list->is_array())
        refuse("lanes: \"expressions\" is a list of strings");
    if (list != args.end())
        for (const nlohmann::json& e : *list)
            expressions.push_back(JsonField::as<std::string>(e, "expressions"));
    return DapLanes::table(s, std::move(expressions));
}

nlohmann::json DapServer::source(const nlohmann::json& args)
{
    session();
    int reference = JsonField::get<int>(args, "sourceReference", 0);
    if (reference == 0)
        reference = JsonField::get<int>(args.value("source", nlohmann::json::object()), "sourceReference", 0);
    const auto text = sources_->content(reference);
    if (!text)
        refuse(fmt::format("no source of reference {}", reference));
    return {{"content", *text}, {"mimeType", "text/x-cuda"}};
}

nlohmann::json DapServer::resume(const nlohmann::json& args, Motion motion)
{
    DebugSession& s = session();
    focusThread(args);
    if (JsonField::get<std::string>(args, "granularity", "") == "instruction") {
        if (motion == Motion::Next || motion == Motion::Step)
            motion = Motion::StepInstruction;
        else if (motion == Motion::ReverseStep)
            motion = Motion::ReverseStepInstruction;
    }
    // Answered first and then run, forwards or backwards: a `pause` read meanwhile
    // interrupts it (DebugSession::interrupt).
    s.checkResumable(motion); // refused now, as an error response
    pending_ = motion;
    // The protocol gives only `continue` a body; the other motions' responses are acknowledgements.
    if (motion == Motion::Continue)
        return {{"allThreadsContinued", true}};
    return nullptr;
}

nlohmann::json DapServer::terminate()
{
    DebugSession& s = session();
    if (!terminated_ && s.ended())
        queueEvent("exited", {{"exitCode", s.stop().reason == StopReason::Fault ? ExitCode::Fault : ExitCode::Ok}});
    if (!terminated_)
        queueEvent("terminated", nlohmann::json::object());
    terminated_ = true;
    return nullptr;
}

} // namespace kw::debug
