#pragma once
// The client side of the serve protocol without Qt, for `kwb-run run --runner CMD`
// and tests: starts the runner command, checks its protocol version, sends jobs
// with their headers and initialiser data, and collects results and output buffers.
// A runner that ends mid-job makes the job lost (kw::Error, category Io), never a result.
// The runner is never believed: what it sends back is checked against the request
// (serve/RunnerReplyReader, ReturnedBuffers, RunnerReply), and anything the protocol does
// not allow is kw::Error(Protocol) naming the runner.
#include "compile/CompileResult.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"
#include "run/RunEngine.hpp"
#include "serve/MessageChannel.hpp"
#include "serve/ReturnedBuffers.hpp"
#include "serve/RunnerProcess.hpp"
#include "serve/RunnerReply.hpp"
#include "serve/RunnerReplyReader.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kw {

// Bytes of protocol messages (header lines and binary frames) each way.
struct RunnerTraffic {
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
};

class ServeClient {
public:
    // Starts the runner and says hello. Throws kw::Error: Protocol for a version
    // mismatch, Io (described by RunnerFailure) when the runner ends first.
    explicit ServeClient(const std::string& commandLine);
    ~ServeClient(); // asks the runner to exit, kills it after a grace period
    ServeClient(const ServeClient&) = delete;
    ServeClient& operator=(const ServeClient&) = delete;

    const std::vector<DeviceInfo>& devices() const noexcept { return devices_; }
    const std::string& runnerRelease() const noexcept { return release_; }
    const std::string& commandLine() const noexcept { return process_.commandLine(); }

    using StageCallback = std::function<void(const std::string& stage)>;
    // Runs the document on the runner's device ("" for its default). Buffers come
    // back as the runner returns them ("outputs" or "all"), only the document's, each
    // with the document's dtype and count.
    RunResult run(const Document& doc, const std::string& device, const std::string& returnBuffers = "outputs",
                  const StageCallback& onStage = {}, const RunOverrides& overrides = {});
    CompileResult compile(const Document& doc, const std::string& device);

    RunnerTraffic traffic() const noexcept { return total_; }
    RunnerTraffic lastJob() const noexcept { return last_; }
    // Ends the connection the hard way (the process group), as a network failure would.
    void kill() { process_.kill(); }

private:
    // Sends a request and reads up to its final reply; frames `returned` admits land in `frames`.
    nlohmann::json roundTrip(const nlohmann::json& header, const HostBytes& payload, const StageCallback& onStage,
                             ReturnedBuffers& returned, std::map<std::string, HostBuffer>& frames);
    [[noreturn]] void lost(const std::string& during);

    RunnerProcess process_;
    MessageChannel channel_;
    RunnerReplyReader reader_; // the runner's output through the one client state machine
    RunnerReply reply_;        // decodes final replies, naming this runner
    std::vector<DeviceInfo> devices_;
    std::string release_;
    int nextId_ = 1;
    RunnerTraffic total_, last_;
};

} // namespace kw
