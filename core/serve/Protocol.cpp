#include "serve/Protocol.hpp"

#include "util/Error.hpp"
#include "util/JsonField.hpp"

namespace kw::protocol {

using nlohmann::json;

json request(const json& id, std::string_view op, json members)
{
    members["v"] = kVersion;
    members["id"] = id;
    members["op"] = op;
    return members;
}

json reply(const json& id, json result)
{
    return {{"v", kVersion}, {"id", id}, {"ok", true}, {"result", std::move(result)}};
}

json errorReply(const json& id, const std::exception& e)
{
    json error;
    if (const auto* ke = dynamic_cast<const Error*>(&e))
        error = {{"category", toString(ke->category())},
                 {"message", e.what()},
                 {"path", ke->path() ? json(*ke->path()) : json(nullptr)},
                 {"line", ke->line() ? json(*ke->line()) : json(nullptr)}};
    else
        error = {{"category", "internal"}, {"message", e.what()}, {"path", nullptr}, {"line", nullptr}};
    return {{"v", kVersion}, {"id", id}, {"ok", false}, {"error", std::move(error)}};
}

json eventMessage(const json& id, std::string_view name, json body)
{
    body["v"] = kVersion;
    body["id"] = id;
    body["event"] = name;
    return body;
}

json stageEvent(const json& id, std::string_view stage) { return eventMessage(id, event::kStage, {{"stage", stage}}); }

json stepEvent(const json& id, std::string_view path)
{
    return eventMessage(id, event::kStage, {{"stage", stage::kStep}, {"step", path}});
}

std::string opOf(const json& message) { return JsonField::get<std::string>(message, "op", {}); }
std::string eventOf(const json& message) { return JsonField::get<std::string>(message, "event", {}); }
std::string stageOf(const json& message) { return JsonField::get<std::string>(message, "stage", {}); }
std::string stepOf(const json& message) { return JsonField::get<std::string>(message, "step", {}); }

std::string encode(json header, const void* binary, std::size_t bytes)
{
    if (binary)
        header["binary"] = bytes;
    // Invalid UTF-8 (user printf output) is replaced, never a reason to fail.
    std::string wire = header.dump(-1, ' ', false, json::error_handler_t::replace);
    wire.push_back('\n');
    if (binary && bytes)
        wire.append(static_cast<const char*>(binary), bytes);
    return wire;
}

std::size_t lineBytes(const json& header)
{
    return header.dump(-1, ' ', false, json::error_handler_t::replace).size() + 1;
}

std::string versionMismatch(int runnerVersion, int clientVersion)
{
    return "protocol version mismatch: the runner speaks version " + std::to_string(runnerVersion)
        + " and this client speaks version " + std::to_string(clientVersion)
        + "; install the same Kernel Workbench release on both sides";
}

int versionOf(const json& message)
{
    auto it = message.find("v");
    return it != message.end() && it->is_number_integer() ? it->get<int>() : 0;
}

void checkHelloReply(const json& message)
{
    // Members of the wrong type are a reply in no version of the protocol: JsonField refuses them.
    if (!JsonField::get<bool>(message, "ok", false)) {
        const std::string refused = "the runner refused the hello request";
        const auto error = message.find("error");
        const std::string text = error != message.end() && error->is_object()
            ? JsonField::get<std::string>(*error, "message", refused)
            : refused;
        // A runner of another version says so itself; keep its words.
        if (text.find("protocol version mismatch") != std::string::npos)
            throw Error(ErrorCategory::Protocol, text);
        if (versionOf(message) != kVersion)
            throw Error(ErrorCategory::Protocol, versionMismatch(versionOf(message), kVersion));
        throw Error(ErrorCategory::Protocol, text);
    }
    const auto result = message.find("result");
    const int theirs = result != message.end() && result->is_object()
        ? JsonField::get<int>(*result, "protocol", versionOf(message))
        : versionOf(message);
    if (theirs != kVersion)
        throw Error(ErrorCategory::Protocol, versionMismatch(theirs, kVersion));
}

} // namespace kw::protocol
