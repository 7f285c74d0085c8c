#include "serve/RunRequestOptions.hpp"

#include "util/Error.hpp"

#include <nlohmann/json.hpp>

namespace kw {

using nlohmann::json;

namespace {

[[noreturn]] void malformed(const std::string& what) { throw Error(ErrorCategory::Protocol, "run request: " + what); }

} // namespace

void writeRunOptions(json& request, const RunOverrides& overrides)
{
    if (overrides.check && *overrides.check != CheckTool::None)
        request["check"] = toString(*overrides.check);
    if (!overrides.stepBuffers.empty())
        request["step_buffers"] = overrides.stepBuffers;
    if (!overrides.profile.enabled)
        return;
    if (!overrides.profile.capture) {
        request["profile"] = true;
        return;
    }
    const AccessCaptureRequest& c = *overrides.profile.capture;
    request["profile"] = {{"file", c.file},
                          {"line", c.line},
                          {"block", {c.block.x, c.block.y, c.block.z}},
                          {"warp", c.warp},
                          {"max_samples", c.maxSamples}};
}

RunOverrides readRunOptions(const json& request)
{
    RunOverrides o;
    if (auto it = request.find("check"); it != request.end()) {
        if (!it->is_string())
            malformed("\"check\" must be a string");
        const auto tool = parseCheckTool(it->get<std::string>());
        if (!tool)
            malformed("\"check\" must be memcheck, racecheck, initcheck or synccheck, not \"" + it->get<std::string>()
                      + "\"");
        o.check = *tool;
    }
    if (auto it = request.find("step_buffers"); it != request.end()) {
        if (!it->is_array())
            malformed("\"step_buffers\" must be an array of step paths");
        for (const json& path : *it) {
            if (!path.is_string())
                malformed("\"step_buffers\" must be an array of step paths (strings such as \"2.1\" or \"*\")");
            o.stepBuffers.push_back(path.get<std::string>());
        }
    }
    auto it = request.find("profile");
    if (it == request.end() || (it->is_boolean() && !it->get<bool>()))
        return o;
    o.profile.enabled = true;
    if (it->is_boolean())
        return o;
    if (!it->is_object())
        malformed("\"profile\" must be true or an object");
    try {
        AccessCaptureRequest c;
        c.file = it->value("file", std::string());
        c.line = it->value("line", 0);
        const json block = it->value("block", json::array({0, 0, 0}));
        if (!block.is_array() || block.size() != 3)
            malformed("\"profile.block\" must be [x, y, z]");
        c.block = {block[0].get<std::uint32_t>(), block[1].get<std::uint32_t>(), block[2].get<std::uint32_t>()};
        c.warp = it->value("warp", 0u);
        c.maxSamples = it->value("max_samples", c.maxSamples);
        o.profile.capture = c;
    } catch (const json::exception& e) {
        malformed(std::string("\"profile\": ") + e.what());
    }
    return o;
}

} // namespace kw
