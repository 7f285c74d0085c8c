#pragma once
// A runner's final replies decoded without believing them (docs/protocol.md, "Replies"),
// for both clients (ServeClient, the window's RunnerClient): members are type-checked,
// and a reply the protocol does not allow is kw::Error(Protocol) naming the runner, never
// a nlohmann::json exception. A refusal the runner sends (ok false) is passed on in its
// words.
#include "compile/CompileResult.hpp"
#include "data/HostBuffer.hpp"
#include "launch/RunResult.hpp"
#include "serve/ReturnedBuffers.hpp"
#include "util/Error.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

class RunnerReply {
public:
    struct Hello {
        std::string release; // the runner's Kernel Workbench version
        std::vector<DeviceInfo> devices;
    };

    // `runner` names it in messages: its command line, or the window's name for it.
    explicit RunnerReply(std::string runner);

    // The "result" of a final reply that says ok (an object). A refusal (ok false) throws
    // kw::Error(Protocol) "CATEGORY: MESSAGE" as the runner said it.
    nlohmann::json result(const nlohmann::json& reply) const;

    // A whole hello reply, after protocol::checkHelloReply (a version mismatch is its own message).
    Hello hello(const nlohmann::json& reply) const;
    // The devices of a hello or devices result.
    std::vector<DeviceInfo> devices(const nlohmann::json& result) const;
    CompileResult compile(const nlohmann::json& result) const;
    // The run result, its buffer list checked by `returned`, with the frames that came as its buffers' data.
    RunResult run(const nlohmann::json& result, const ReturnedBuffers& returned,
                  std::map<std::string, HostBuffer>& frames) const;

    // kw::Error(Protocol): `the runner "RUNNER" broke the protocol: WHAT`.
    Error broken(std::string_view what) const;

private:
    std::string runner_;
};

} // namespace kw
