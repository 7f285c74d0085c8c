#pragma once
// Executes one serve request (hello, devices, compile, run, shutdown, and the session
// requests open, message, close) and writes its events and reply. Keeps compilers,
// backends and open sessions between requests.
#include "launch/Backend.hpp"
#include "run/PreparedRunCache.hpp"
#include "serve/MessageChannel.hpp"
#include "serve/SessionTable.hpp"
#include "serve/Watchdog.hpp"

#include <map>
#include <memory>
#include <string>

namespace kw {

class Compiler;
class PrintfCapture;

class JobDispatcher {
public:
    enum class Next { Continue, Restart, Exit };

    JobDispatcher(MessageChannel& channel, PrintfCapture* printf);
    ~JobDispatcher();

    // Handles one request. Restart: the process must be replaced before the next
    // request; replay() is a request to serve first in the new process (or empty).
    Next handle(Message& request); // a run takes the request's payload
    const std::string& replay() const noexcept { return replay_; }

    // Replies with an error for a request that could not be parsed.
    void replyError(const nlohmann::json& id, const std::exception& e);

private:
    void disarmOrWait();
    nlohmann::json hello();
    nlohmann::json devices();
    nlohmann::json compile(const Message& request);
    Next run(Message& request, const nlohmann::json& id);
    Backend& backend(const std::string& device);
    void stage(const nlohmann::json& id, const std::string& name);

    MessageChannel& channel_;
    PrintfCapture* printf_;
    std::unique_ptr<Compiler> compiler_;
    std::map<std::string, std::unique_ptr<Backend>> backends_;
    PreparedRunCache preparedInputs_;
    Watchdog watchdog_;
    SessionTable sessions_;
    std::string replay_;
};

} // namespace kw
