#include "serve/RunnerReply.hpp"

#include "serve/Protocol.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"

namespace kw {

using nlohmann::json;

RunnerReply::RunnerReply(std::string runner)
    : runner_(std::move(runner))
{
}

Error RunnerReply::broken(std::string_view what) const
{
    return Error(ErrorCategory::Protocol, "the runner \"" + runner_ + "\" broke the protocol: " + std::string(what));
}

json RunnerReply::result(const json& reply) const
{
    const auto ok = reply.find("ok");
    if (ok == reply.end() || !ok->is_boolean())
        throw broken("a final reply without a boolean \"ok\"");
    if (ok->get<bool>()) {
        const auto result = reply.find("result");
        if (result == reply.end() || result->is_null())
            return json::object();
        if (!result->is_object())
            throw broken(std::string("a \"result\" that is not an object but ") + result->type_name());
        return *result;
    }
    const auto error = reply.find("error");
    if (error == reply.end() || !error->is_object())
        throw broken("a refusal without an \"error\" object");
    std::string category, message;
    try {
        category = JsonField::get<std::string>(*error, "category", "error");
        message = JsonField::get<std::string>(*error, "message", "");
    } catch (const Error& e) {
        throw broken(std::string("a refusal whose ") + e.what());
    }
    throw Error(ErrorCategory::Protocol, category + ": " + message);
}

RunnerReply::Hello RunnerReply::hello(const json& reply) const
{
    try {
        protocol::checkHelloReply(reply);
    } catch (const Error& e) {
        // A runner of another version gets the protocol's one message (docs/protocol.md, "Version check").
        if (std::string_view(e.what()).find("protocol version mismatch") != std::string_view::npos)
            throw;
        throw broken(e.what());
    }
    const json r = result(reply);
    Hello h;
    try {
        h.release = JsonField::get<std::string>(r, "version", {});
    } catch (const Error& e) {
        throw broken(std::string("a hello reply whose ") + e.what());
    }
    h.devices = devices(r);
    return h;
}

std::vector<DeviceInfo> RunnerReply::devices(const json& result) const
{
    std::vector<DeviceInfo> out;
    const auto list = result.find("devices");
    if (list == result.end() || list->is_null())
        return out;
    if (!list->is_array())
        throw broken(std::string("\"devices\" that are not an array but ") + list->type_name());
    for (const json& d : *list) {
        try {
            out.push_back(deviceInfoFromJson(d));
        } catch (const Error& e) {
            throw broken(std::string("a device that cannot be read: ") + e.what());
        }
    }
    return out;
}

CompileResult RunnerReply::compile(const json& result) const
{
    try {
        return compileResultFromJson(result);
    } catch (const Error& e) {
        throw broken(std::string("a compile result that cannot be read: ") + e.what());
    }
}

RunResult RunnerReply::run(const json& result, const ReturnedBuffers& returned,
                           std::map<std::string, HostBuffer>& frames) const
{
    try {
        RunResult r = runResultFromJson(result);
        returned.attach(r, frames);
        return r;
    } catch (const Error& e) {
        throw broken(e.what());
    }
}

} // namespace kw
