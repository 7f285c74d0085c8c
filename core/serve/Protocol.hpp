#pragma once
// The `kwb-run serve` protocol in one place (docs/protocol.md): its version, the
// names of its requests and events, and the codecs both the runner and its
// clients (kwb-run run --runner, the workbench's RunnerClient) use.
#include "serve/ResultJson.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

namespace kw::protocol {

// Version 2: jobs carry their include files and initialiser data (binary frame).
// Version 3: documents of several steps; run results carry "steps".
// Version 4: "step_buffers": buffers after chosen steps (frames with "step"); step events.
inline constexpr int kVersion = 4;

// Requests (member "op").
namespace op {
inline constexpr const char* kHello = "hello";
inline constexpr const char* kDevices = "devices";
inline constexpr const char* kCompile = "compile";
inline constexpr const char* kRun = "run";
inline constexpr const char* kShutdown = "shutdown";
// Sessions: a job that stays open and takes further messages (docs/protocol.md).
inline constexpr const char* kOpen = "open";
inline constexpr const char* kMessage = "message";
inline constexpr const char* kClose = "close";
} // namespace op

// Events before a final reply (member "event").
namespace event {
inline constexpr const char* kStage = "stage";
inline constexpr const char* kBuffer = "buffer";
} // namespace event

// The stages of a job in order (member "stage" of a stage event): the first four
// as run/RunEngine reports them, then the runner's own before the buffer frames.
namespace stage {
inline constexpr const char* kCompile = "compile";
inline constexpr const char* kUpload = "upload";
inline constexpr const char* kLaunch = "launch";
inline constexpr const char* kChecks = "checks";
inline constexpr const char* kDownload = "download";
// A document of steps: a step begins a run (member "step": its path), between launch and checks.
inline constexpr const char* kStep = "step";
} // namespace stage

// {"v": kVersion, "id": id, "op": op, ...members}.
nlohmann::json request(const nlohmann::json& id, std::string_view op,
                       nlohmann::json members = nlohmann::json::object());
// {"v", "id", "ok": true, "result"}.
nlohmann::json reply(const nlohmann::json& id, nlohmann::json result);
// {"v", "id", "ok": false, "error": {"category", "message", "path", "line"}}.
nlohmann::json errorReply(const nlohmann::json& id, const std::exception& e);
// {"v", "id", "event": name, ...body}.
nlohmann::json eventMessage(const nlohmann::json& id, std::string_view name,
                            nlohmann::json body = nlohmann::json::object());
// {"v", "id", "event": "stage", "stage": stage}.
nlohmann::json stageEvent(const nlohmann::json& id, std::string_view stage);
// {"v", "id", "event": "stage", "stage": "step", "step": path}.
nlohmann::json stepEvent(const nlohmann::json& id, std::string_view path);

// What a message says it is; empty when it does not say. A member that is not a
// string throws kw::Error(Protocol).
std::string opOf(const nlohmann::json& message);    // "op" of a request
std::string eventOf(const nlohmann::json& message); // "event" of an event
std::string stageOf(const nlohmann::json& message); // "stage" of a stage event
std::string stepOf(const nlohmann::json& message);  // "step" of a step event or a buffer frame after a step

// One message as it goes on the wire: the header line (with "binary": bytes when
// there is a payload) and the payload right after its newline.
std::string encode(nlohmann::json header, const void* binary = nullptr, std::size_t bytes = 0);
// The bytes of a header line on the wire (with its newline, without the payload).
std::size_t lineBytes(const nlohmann::json& header);

// The one message for a version mismatch, naming both versions.
std::string versionMismatch(int runnerVersion, int clientVersion);
// The protocol version a message says it speaks (0 when it has none).
int versionOf(const nlohmann::json& message);
// Throws kw::Error(Protocol) with versionMismatch() when a hello reply (the whole
// message) comes from a runner of another version, and kw::Error(Protocol) when it
// is not a hello reply at all (members of the wrong type).
void checkHelloReply(const nlohmann::json& message);

} // namespace kw::protocol
