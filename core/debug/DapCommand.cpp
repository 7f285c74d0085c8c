#include "debug/DapCommand.hpp"

#include "run/ExitCode.hpp"
#include "util/FileDescriptor.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <thread>

namespace kw::debug {

DapCommand::DapCommand(DapLaunchDefaults defaults, DapLimits limits, std::FILE* in, std::FILE* out, std::FILE* err)
    : defaults_(std::move(defaults))
    , limits_(limits)
    , in_(in)
    , out_(out)
    , err_(err)
{
}

namespace {

// The command of a request, as DapServer reads it ("" for anything else).
std::string requestCommand(const std::string& body)
{
    const nlohmann::json m = nlohmann::json::parse(body, nullptr, false);
    if (!m.is_object() || m.value("type", nlohmann::json()) != "request")
        return {};
    const auto command = m.find("command");
    return command != m.end() && command->is_string() ? command->get<std::string>() : std::string();
}

} // namespace

void DapCommand::read(Inbox& inbox, DapServer& server)
{
    DapFraming framing(limits_);
    std::string buffer(1 << 16, '\0');
    auto finish = [&](bool midFrame, std::string broken) {
        std::lock_guard lock(inbox.mu);
        inbox.midFrame = midFrame;
        inbox.broken = std::move(broken);
        inbox.ended = true;
        inbox.ready.notify_one();
    };
    for (;;) {
        // Inside a header one byte at a time; a body in as few reads as it takes, never past it.
        const std::size_t n = std::fread(buffer.data(), 1, std::min(framing.wanted(), buffer.size()), in_);
        if (n == 0)
            return finish(framing.midFrame(), {});
        framing.feed(std::string_view(buffer.data(), n));
        while (auto body = framing.next()) {
            const std::string command = requestCommand(*body);
            if (command == "pause")
                server.interrupt();
            {
                std::lock_guard lock(inbox.mu);
                inbox.bodies.push_back(std::move(*body));
                inbox.ready.notify_one();
            }
            if (command == "disconnect") // nothing after it is read
                return finish(false, {});
        }
        if (!framing.broken().empty())
            return finish(false, framing.broken());
    }
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
    DapServer server(
        [out](const nlohmann::json& message) {
            const std::string frame = DapFraming::frame(message);
            std::fwrite(frame.data(), 1, frame.size(), out);
            std::fflush(out);
        },
        defaults_);
    // The client is read on a thread of its own, so that a `pause` reaches the launch
    // while a motion runs here; the requests are answered in order on this thread.
    Inbox inbox;
    std::thread reader([&] { read(inbox, server); });
    int code = ExitCode::Ok;
    for (;;) {
        std::unique_lock lock(inbox.mu);
        inbox.ready.wait(lock, [&] { return !inbox.bodies.empty() || inbox.ended; });
        if (inbox.bodies.empty())
            break;
        const std::string body = std::move(inbox.bodies.front());
        inbox.bodies.pop_front();
        lock.unlock();
        server.handleBody(body);
        if (server.done())
            break;
    }
    reader.join(); // it stops at `disconnect`, at the input's end or at a frame it cannot read
    if (!server.done()) {
        if (inbox.midFrame)
            fmt::print(err_, "kwb-run debug --dap: the input ended inside a message\n");
        if (!inbox.broken.empty()) {
            const std::string why = "the protocol's input cannot be read on: " + inbox.broken;
            server.event("output", {{"category", "stderr"}, {"output", why + "\n"}});
            server.event("terminated", nlohmann::json::object());
            fmt::print(err_, "kwb-run debug --dap: {}\n", why);
            code = ExitCode::BadInput;
        }
    }
    if (out != out_)
        std::fclose(out);
    return code;
}

} // namespace kw::debug
