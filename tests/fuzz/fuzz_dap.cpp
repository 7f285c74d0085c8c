// `kwb-run debug --dap`'s input side: bytes in pieces of any size through the framing,
// each body to the request dispatch (which answers everything, refusals included, with
// a response and never throws). `launch` is left out: it would read and compile files.
#include "FuzzInput.hpp"
#include "debug/DapFraming.hpp"
#include "debug/DapServer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::size_t piece = 1 + data[0] % 64; // how the bytes arrive
    const std::string_view bytes = kw::fuzz::text(data + 1, size - 1);
    std::size_t sent = 0;
    kw::debug::DapServer server([&](const nlohmann::json& m) { sent += kw::debug::DapFraming::frame(m).size(); });
    kw::debug::DapFraming framing(kw::debug::DapLimits{256, 4096});
    for (std::size_t at = 0; at < bytes.size() && framing.broken().empty() && !server.done(); at += piece) {
        framing.feed(bytes.substr(at, piece));
        while (auto body = framing.next()) {
            const auto m = nlohmann::json::parse(*body, nullptr, false);
            if (m.is_object() && m.value("command", nlohmann::json()) == "launch")
                continue;
            server.handleBody(*body);
        }
    }
    return 0;
}
