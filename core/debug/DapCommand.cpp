#include "debug/DapCommand.hpp"

#include "run/ExitCode.hpp"
#include "util/FileDescriptor.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::debug {

DapCommand::DapCommand(DapLaunchDefaults defaults, DapLimits limits, std::FILE* in, std::FILE* out, std::FILE* err)
    : defaults_(std::move(defaults))
    , limits_(limits)
    , in_(in)
    , out_(out)
    , err_(err)
{
}

int DapCommand::execute()
{
    std::FILE* out = out_;
    if (out_ == stdout) {
        std::fflush(stdout);
        fd::setBinary(0);
        fd::setBinary(1);
        const int channel = fd::duplicate(1);
        std::FILE* stream = channel >= 0 ? fd::openStream(channel, "wb") : nullptr;
        if (stream && fd::duplicateTo(2, 1) >= 0)
            out = stream;
        else if (stream)
            std::fclose(stream);
    }
    DapFraming framing(limits_);
    DapServer server(
        [out](const nlohmann::json& message) {
            const std::string frame = DapFraming::frame(message);
            std::fwrite(frame.data(), 1, frame.size(), out);
            std::fflush(out);
        },
        defaults_);
    int code = ExitCode::Ok;
    std::string buffer(1 << 16, '\0');
    while (!server.done()) {
        // Inside a header one byte at a time; a body in as few reads as it takes, never past it.
        const std::size_t n = std::fread(buffer.data(), 1, std::min(framing.wanted(), buffer.size()), in_);
        if (n == 0) {
            if (framing.midFrame())
                fmt::print(err_, "kwb-run debug --dap: the input ended inside a message\n");
            break;
        }
        framing.feed(std::string_view(buffer.data(), n));
        while (!server.done())
            if (auto body = framing.next())
                server.handleBody(*body);
            else
                break;
        if (!framing.broken().empty()) {
            const std::string why = "the protocol's input cannot be read on: " + framing.broken();
            server.event("output", {{"category", "stderr"}, {"output", why + "\n"}});
            server.event("terminated", nlohmann::json::object());
            fmt::print(err_, "kwb-run debug --dap: {}\n", why);
            code = ExitCode::BadInput;
            break;
        }
    }
    if (out != out_)
        std::fclose(out);
    return code;
}

} // namespace kw::debug
