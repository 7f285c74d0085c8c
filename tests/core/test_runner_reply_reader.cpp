// The client's side of a request, as `kwb-run run --runner` reads it (serve/RunnerReplyReader
// and serve/RunnerReply): a runner's output through a pipe, its frames checked before their
// payloads are read, its replies decoded without believing their types. What the protocol
// does not allow is kw::Error(Protocol) naming the runner, never a nlohmann::json exception.
#include "serve/MessageChannel.hpp"
#include "serve/Protocol.hpp"
#include "serve/ReturnedBuffers.hpp"
#include "serve/RunnerReply.hpp"
#include "serve/RunnerReplyReader.hpp"
#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>

using namespace kw;
using nlohmann::json;

namespace {

// A runner's whole output, written to a pipe and read back by a client's channel.
class RunnerOutput {
public:
    explicit RunnerOutput(const std::string& bytes)
    {
        EXPECT_EQ(fd::makePipe(fd_), 0);
        EXPECT_EQ(fd::write(fd_[1], bytes.data(), bytes.size()), long(bytes.size())) << "fits the pipe";
        fd::close(fd_[1]);
        channel_ = std::make_unique<MessageChannel>(fd_[0], -1);
    }
    ~RunnerOutput()
    {
        channel_.reset();
        fd::close(fd_[0]);
    }
    MessageChannel& channel() { return *channel_; }

private:
    int fd_[2] = {-1, -1};
    std::unique_ptr<MessageChannel> channel_;
};

BufferSpec buffer(const std::string& name, DType dtype, const std::string& count, Direction direction)
{
    BufferSpec b;
    b.name = name;
    b.dtype = dtype;
    b.count = count;
    b.direction = direction;
    return b;
}

Document document()
{
    Document doc;
    doc.buffers = {buffer("a", DType::F32, "4", Direction::In), buffer("c", DType::F32, "4", Direction::Out)};
    return doc;
}

std::string line(const json& message) { return message.dump() + "\n"; }

std::string bufferFrame(const json& name, const json& count, const std::string& payload, json binary = nullptr)
{
    json h = {{"v", 2}, {"id", 2}, {"event", "buffer"}, {"name", name}, {"dtype", "f32"}, {"count", count}};
    h["binary"] = binary.is_null() ? json(payload.size()) : binary;
    return line(h) + payload;
}

const std::string kFourFloats = [] {
    const float v[4] = {5, 7, 9, 11};
    return std::string(reinterpret_cast<const char*>(v), sizeof v);
}();

json runResult(json buffers)
{
    return {{"ok", true}, {"device", {{"id", "sim"}}}, {"compile", {{"ok", true}}}, {"buffers", std::move(buffers)}};
}

json listedC() { return {{{"name", "c"}, {"dtype", "f32"}, {"shape", {4}}, {"direction", "out"}}}; }

std::string runReply(const json& result) { return line(protocol::reply(2, result)); }

// The run's reply read and decoded as ServeClient::run does (the reader's refusals named
// after the runner); the message of what refused it ("" when nothing did).
struct Outcome {
    std::optional<RunResult> result;
    std::string refusal;
    std::vector<std::string> stages;
};

Outcome readRun(const std::string& output, const std::string& returnBuffers = "outputs")
{
    RunnerOutput out(output);
    RunnerReplyReader reader(out.channel());
    const RunnerReply decode("sh fake-runner.sh");
    ReturnedBuffers returned(document(), returnBuffers);
    std::map<std::string, HostBuffer> frames;
    Outcome o;
    std::optional<json> reply;
    try {
        reply = reader.read(2, returned, frames, [&](const std::string& s) { o.stages.push_back(s); });
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Protocol) << e.what();
        o.refusal = decode.broken(e.what()).what();
        return o;
    }
    if (!reply)
        return o;
    try {
        o.result = decode.run(decode.result(*reply), returned, frames);
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Protocol) << e.what();
        o.refusal = e.what();
    }
    return o;
}

// What a refusal must say: that the runner broke the protocol, which runner, and `part`.
void expectRefused(const Outcome& o, const std::string& part)
{
    EXPECT_FALSE(o.result) << "believed";
    EXPECT_NE(o.refusal.find("the runner \"sh fake-runner.sh\" broke the protocol"), std::string::npos) << o.refusal;
    EXPECT_NE(o.refusal.find(part), std::string::npos) << o.refusal;
}

} // namespace

TEST(RunnerReplyReader, AnHonestRunBringsItsStagesItsFramesAndItsResult)
{
    const json otherRequestStage = {{"v", 2}, {"id", 9}, {"event", "stage"}, {"stage", "launch"}};
    const std::string output = line(protocol::stageEvent(2, "compile")) + line(protocol::stageEvent(2, "download"))
        + line(otherRequestStage) + bufferFrame("c", 4, kFourFloats) + runReply(runResult(listedC()));
    const Outcome o = readRun(output);
    ASSERT_TRUE(o.result) << o.refusal;
    EXPECT_EQ(o.stages, (std::vector<std::string>{"compile", "download"}));
    ASSERT_EQ(o.result->buffers.size(), 1u);
    EXPECT_EQ(o.result->buffers[0].data.count(), 4u);
    EXPECT_EQ(o.result->buffers[0].data.at(3), 11.0);
}

TEST(RunnerReplyReader, TheEndOfTheOutputBeforeTheReplyIsNoReply)
{
    const Outcome o = readRun(line(protocol::stageEvent(2, "compile")));
    EXPECT_FALSE(o.result);
    EXPECT_TRUE(o.refusal.empty()) << o.refusal;
}

TEST(RunnerReplyReader, BadNamesInFramesAreRefused)
{
    expectRefused(readRun(bufferFrame("../../x", 4, kFourFloats) + runReply(runResult(listedC()))), "\"../../x\"");
    expectRefused(readRun(bufferFrame(std::string("c\0", 2), 4, kFourFloats) + runReply(runResult(listedC()))),
                  "\"c\\x00\"");
    expectRefused(readRun(bufferFrame("COM1", 4, kFourFloats)), "device name");
    expectRefused(readRun(bufferFrame("b", 4, kFourFloats)), "not a buffer of the request");
    expectRefused(readRun(bufferFrame("a", 4, kFourFloats)), "does not ask back");
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats) + bufferFrame("c", 4, kFourFloats)), "sent twice");
}

TEST(RunnerReplyReader, BadNamesInTheResultListAreRefused)
{
    json traversal = listedC();
    traversal[0]["name"] = "../../x";
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats) + runReply(runResult(traversal))), "\"../../x\"");
    json twice = listedC();
    twice.push_back(twice[0]);
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats) + runReply(runResult(twice))), "listed twice");
    json shape = listedC();
    shape[0]["shape"] = {1000000};
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats) + runReply(runResult(shape))), "does not hold");
}

TEST(RunnerReplyReader, AFrameOf2To42ElementsIsRefusedFromItsHeaderBeforeItsPayloadIsRead)
{
    // It claims a 16 TiB payload and sends 16 bytes: refused for its count, not for an early end.
    const std::uint64_t n = std::uint64_t(1) << 42;
    expectRefused(readRun(bufferFrame("c", n, kFourFloats, n * 4)), "4398046511104 elements");
    expectRefused(readRun(bufferFrame("c", n, kFourFloats)), "4398046511104 elements");
}

TEST(RunnerReplyReader, ACountOf2To62Plus1ThatWrapsToFourBytesIsRefused)
{
    const std::uint64_t n = (std::uint64_t(1) << 62) + 1;
    expectRefused(readRun(bufferFrame("c", n, kFourFloats.substr(0, 4)) + runReply(runResult(listedC()))),
                  "4611686018427387905");
}

TEST(RunnerReplyReader, ALyingCountOrPayloadIsRefused)
{
    expectRefused(readRun(bufferFrame("c", 3, kFourFloats.substr(0, 12))),
                  "3 elements, but the document's buffer has 4");
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats.substr(0, 12))), "a payload of 12 bytes");
}

TEST(RunnerReplyReader, IllTypedHeadersAreProtocolErrors)
{
    expectRefused(readRun(line({{"v", 2},
                                {"id", 2},
                                {"event", "buffer"},
                                {"name", "c"},
                                {"dtype", "f32"},
                                {"count", 4},
                                {"binary", "oops"}})),
                  "\"binary\" must be a byte count");
    expectRefused(readRun(line({{"binary", "oops"}})), "\"binary\" must be a byte count");
    expectRefused(readRun(bufferFrame(5, 4, kFourFloats)), "\"name\" must be a string");
    expectRefused(readRun(bufferFrame("c", "4", kFourFloats)), "\"count\" must be an integer");
    expectRefused(readRun(bufferFrame("c", -4, kFourFloats)), "\"count\" must be an integer");
    json dtype = json::parse(bufferFrame("c", 4, "").substr(0, bufferFrame("c", 4, "").size() - 1));
    dtype["dtype"] = 32;
    dtype["binary"] = 16;
    expectRefused(readRun(line(dtype) + kFourFloats), "\"dtype\" must be a string");
    dtype["dtype"] = "f33";
    expectRefused(readRun(line(dtype) + kFourFloats), "dtype \"f33\"");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"event", 5}})), "\"event\" must be a string");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"event", "stage"}, {"stage", {1}}})),
                  "\"stage\" must be a string");
}

TEST(RunnerReplyReader, APayloadOnAnythingButAFrameOfTheRequestIsRefused)
{
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"event", "stage"}, {"stage", "launch"}, {"binary", 4}}) + "abcd"),
                  "not a buffer frame");
    const json otherRequestFrame = {{"v", 2}, {"id", 7}, {"event", "buffer"}, {"name", "c"}, {"binary", 16}};
    expectRefused(readRun(line(otherRequestFrame) + kFourFloats), "not a buffer frame");
}

TEST(RunnerReplyReader, IllTypedFinalRepliesAreProtocolErrorsNamingTheRunner)
{
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"ok", "yes"}})), "\"ok\"");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}})), "\"ok\"");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"ok", true}, {"result", 5}})), "not an object");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"ok", false}, {"error", "bad"}})), "\"error\" object");
    expectRefused(readRun(line({{"v", 2}, {"id", 2}, {"ok", false}, {"error", {{"message", 5}}}})), "\"message\"");
    expectRefused(readRun(runReply(runResult({{{"name", 5}}}))), "\"name\" must be a string");
    expectRefused(readRun(runReply(runResult({{{"name", "c"}, {"dtype", "f33"}}}))), "unknown dtype");
    json r = runResult(listedC());
    r["timings"] = {{"median_ms", "fast"}};
    expectRefused(readRun(bufferFrame("c", 4, kFourFloats) + runReply(r)), "\"median_ms\" must be a number");
    r = runResult(json::array());
    r["launch"] = {{"grid", {1e300, 1, 1}}};
    expectRefused(readRun(runReply(r)), "must be an integer"); // no undefined double-to-int conversion
    r = runResult(json::array());
    r["fault"] = {{"kind", "melted"}};
    expectRefused(readRun(runReply(r)), "unknown fault kind");
    r = runResult(json::array());
    r["printf"] = 5;
    expectRefused(readRun(runReply(r)), "run result");
}

TEST(RunnerReplyReader, ARefusalIsPassedOnInTheRunnersWords)
{
    const Outcome o = readRun(line(protocol::errorReply(2, Error(ErrorCategory::Document, "buffers[0]: bad count"))));
    EXPECT_EQ(o.refusal, "document: buffers[0]: bad count");
}

TEST(RunnerReply, HelloRepliesAreCheckedAndDecoded)
{
    const RunnerReply decode("sh fake-runner.sh");
    const auto hello = decode.hello(protocol::reply(1,
                                                    {{"protocol", protocol::kVersion},
                                                     {"version", "0.1.0"},
                                                     {"devices", {{{"id", "sim"}, {"name", "PTX simulator"}}}}}));
    EXPECT_EQ(hello.release, "0.1.0");
    ASSERT_EQ(hello.devices.size(), 1u);
    EXPECT_EQ(hello.devices[0].id, "sim");
    // A runner of another version keeps the protocol's one message.
    try {
        decode.hello(protocol::reply(1, {{"protocol", protocol::kVersion + 1}}));
        ADD_FAILURE() << "believed";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), protocol::versionMismatch(protocol::kVersion + 1, protocol::kVersion));
    }
    for (const json& bad :
         {json({{"v", protocol::kVersion}, {"id", 1}, {"ok", "yes"}}), protocol::reply(1, {{"protocol", "2"}}),
          protocol::reply(1, {{"protocol", protocol::kVersion}, {"version", 0.1}}),
          protocol::reply(1, {{"protocol", protocol::kVersion}, {"devices", 5}}),
          protocol::reply(1, {{"protocol", protocol::kVersion}, {"devices", {{{"cc_major", "nine"}}}}}),
          protocol::reply(1, {{"protocol", protocol::kVersion}, {"devices", {{{"limits", {{"max_block", {-1}}}}}}}})}) {
        try {
            decode.hello(bad);
            ADD_FAILURE() << "believed " << bad.dump();
        } catch (const Error& e) {
            EXPECT_EQ(e.category(), ErrorCategory::Protocol);
            EXPECT_NE(std::string(e.what()).find("sh fake-runner.sh"), std::string::npos) << e.what();
        }
    }
}

TEST(RunnerReply, CompileResultsOfTheWrongTypeAreProtocolErrors)
{
    const RunnerReply decode("r");
    EXPECT_TRUE(decode.compile({{"ok", true}, {"diagnostics", json::array()}}).ok);
    for (const json& bad :
         {json({{"ok", 1}}), json({{"diagnostics", {{{"line", "3"}}}}}), json({{"kernels", {{{"name", 5}}}}}),
          json({{"lowered_names", {{"k", 5}}}}), json({{"diagnostics", {{{"severity", "doom"}}}}})})
        EXPECT_THROW(decode.compile(bad), Error) << bad.dump();
}
