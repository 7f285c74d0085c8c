#pragma once
// The Debug Adapter Protocol over a DebugSession (docs/debugger.md, "VS Code and other
// DAP clients"): one request in, its response and then its events out through `send`.
// No I/O of its own: `kwb-run debug --dap` frames what it sends (DapFraming), tests
// call handle() directly.
//
// The mapping: the focused block's warps are the threads ("block B warp W", id W + 1);
// a thread's stack is the inlined call frames of its next instruction; a request that
// names a thread or a frame focuses its warp. The lane has no place in the protocol:
// the focused lane is the one a stop names, and the Debug Console's commands (`lane N`,
// `thread N`, `lanes EXPR...`, `shared TYPE`...) reach the rest; the adapter's own
// request `lanes` gives the lane table as values (DapLanes). The launch runs on
// the thread that calls handle(): a forward motion is answered first and then run, its
// `stopped` event after it; interrupt(), from any thread (the one reading the client),
// stops it, and `pause` then says so.
#include "debug/DebugSession.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kw {
class Compiler;
}

namespace kw::debug {

class DebugConsole;
class DapSources;
class DapOutput;
class DapVariables;

// What `kwb-run debug` was given on its command line: the launch request's defaults.
struct DapLaunchDefaults {
    std::string document; // DOC.kwb, or empty: the launch request names it
    bool trust = false;
    std::string check;
    std::string step;
};

class DapServer {
public:
    using Send = std::function<void(const nlohmann::json&)>;

    explicit DapServer(Send send, DapLaunchDefaults defaults = {});
    ~DapServer();
    DapServer(const DapServer&) = delete;
    DapServer& operator=(const DapServer&) = delete;

    // One message's body as the client framed it. Never throws: what cannot be answered
    // (not JSON, not a request, an unknown command, a refused one) gets an error response.
    void handleBody(const std::string& body);
    void handle(const nlohmann::json& message);
    // An event of the adapter's own (a broken stream, said before the end).
    void event(const std::string& name, nlohmann::json body);
    // `disconnect` was answered: nothing more is read.
    bool done() const { return done_; }
    // From any thread, as a `pause` request arrives: the motion under way stops before its
    // next instruction, with a `stopped` event of reason `pause`.
    void interrupt();

private:
    Send send_;
    DapLaunchDefaults defaults_;
    int seq_ = 1;
    bool done_ = false;
    bool linesStartAt1_ = true, columnsStartAt1_ = true;
    bool stopOnEntry_ = false;
    bool terminated_ = false;
    std::unique_ptr<Compiler> compiler_;
    std::unique_ptr<DebugSession> session_;
    std::unique_ptr<DebugConsole> console_;
    std::unique_ptr<DapSources> sources_;
    std::unique_ptr<DapVariables> variables_;
    std::unique_ptr<DapOutput> output_;
    std::atomic<DebugSession*> live_{nullptr}; // session_, for interrupt() on another thread
    std::optional<Motion> pending_;            // answered, run after its response
    std::chrono::steady_clock::time_point lastOutput_;
    std::vector<nlohmann::json> events_; // sent after the response of the request that made them
    // setBreakpoints replaces one file's breakpoints: the session's ids by file.
    std::map<std::string, std::vector<int>> fileBreakpoints_;
    std::vector<int> dataWatches_;
    // The DAP ids of the session's breakpoints and watches (one id space in the protocol).
    std::map<int, int> breakpointIds_, watchIds_;
    int nextId_ = 1;

    void respond(const nlohmann::json& request, bool success, nlohmann::json body, const std::string& message = {});
    void queueEvent(const std::string& name, nlohmann::json body);
    nlohmann::json dispatch(const std::string& command, const nlohmann::json& args);
    DebugSession& session();

    nlohmann::json initialize(const nlohmann::json& args);
    nlohmann::json launch(const nlohmann::json& args);
    nlohmann::json configurationDone();
    nlohmann::json setBreakpoints(const nlohmann::json& args);
    nlohmann::json dataBreakpointInfo(const nlohmann::json& args);
    nlohmann::json setDataBreakpoints(const nlohmann::json& args);
    nlohmann::json threads();
    nlohmann::json stackTrace(const nlohmann::json& args);
    nlohmann::json scopes(const nlohmann::json& args);
    nlohmann::json variables(const nlohmann::json& args);
    nlohmann::json evaluate(const nlohmann::json& args);
    nlohmann::json source(const nlohmann::json& args);
    nlohmann::json lanes(const nlohmann::json& args);
    nlohmann::json resume(const nlohmann::json& args, Motion motion);
    nlohmann::json terminate();

    // The warp a thread id or a frame id names, focused.
    void focusThread(const nlohmann::json& args);
    void focusFrame(const nlohmann::json& args);
    // The stop just made: references reset, the output printed since, the `stopped` event queued.
    void stopped(const Stop& s);
    // The motion answered already, run; its events (or its error as output) sent.
    void runPending();
    // Output events for what the kernel printed since the last ones.
    void queueOutput();
    // Breakpoints placed or deleted from the Debug Console, told to the client.
    void announceConsoleBreakpoints(const std::vector<BreakpointInfo>& before);
    int line(std::uint32_t line) const { return int(line) - (linesStartAt1_ ? 0 : 1); }
};

} // namespace kw::debug
