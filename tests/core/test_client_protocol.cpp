// The client's state machine of the serve protocol (serve/ClientProtocol) fed the exact
// bytes a `kwb-run serve` wrote for real runs (tests/data/serve/*.bin, recorded by
// tests/data/serve/record.py): whole, split at every byte, and with frames read straight
// into their buffers as the window reads them. Every way yields the same events.
#include "doc/DocumentReader.hpp"
#include "serve/ClientProtocol.hpp"
#include "serve/Protocol.hpp"
#include "serve/RunnerReply.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace kw;
using nlohmann::json;
using Kind = ClientProtocol::Event::Kind;

namespace {

std::string recorded(const std::string& name)
{
    std::ifstream f(std::string(KW_TEST_DATA_DIR) + "/serve/" + name, std::ios::binary);
    EXPECT_TRUE(f) << name;
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

Document sample(const std::string& name)
{
    return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + name, Trust::Trusted);
}

// One event as a comparable value: its kind, id, what it says, and its frames' bytes.
struct Seen {
    Kind kind;
    std::string id, stage, buffer, step, message, error;
    std::map<std::string, std::string> frames;
    ClientProtocol::Event event;
    bool operator==(const Seen& o) const
    {
        return kind == o.kind && id == o.id && stage == o.stage && buffer == o.buffer && step == o.step
            && message == o.message && error == o.error && frames == o.frames;
    }
};

enum class Feed { Whole, ByteByByte, StraightIntoFrames };

// The events of `wire`, for a client that sent hello (1) and two requests of `doc` (2, 3).
std::vector<Seen> events(const std::string& wire, Feed how, const Document& doc,
                         const std::string& returnBuffers = "outputs", const std::vector<std::string>& stepBuffers = {})
{
    ClientProtocol p;
    p.expect(1);
    p.expect(2, ReturnedBuffers(doc, returnBuffers, stepBuffers));
    p.expect(3, ReturnedBuffers(doc, returnBuffers, stepBuffers));
    std::vector<Seen> seen;
    const auto drain = [&] {
        while (auto e = p.next()) {
            Seen s{e->kind, e->id.dump(), e->stage, e->buffer, e->step, e->message.dump(), e->error, {}, {}};
            for (const auto& [name, b] : e->frames)
                s.frames[name] = std::string(reinterpret_cast<const char*>(b.data()), b.byteSize());
            s.event = std::move(*e);
            seen.push_back(std::move(s));
        }
    };
    std::size_t at = 0;
    while (at < wire.size()) {
        if (how == Feed::StraightIntoFrames) {
            const std::span<std::byte> room = p.frameRoom();
            if (!room.empty()) {
                const std::size_t n = std::min(room.size(), wire.size() - at);
                std::memcpy(room.data(), wire.data() + at, n);
                p.wrote(n);
                at += n;
                drain();
                continue;
            }
        }
        const std::size_t n = how == Feed::Whole ? wire.size() : 1;
        p.receive(wire.data() + at, n);
        at += n;
        drain();
    }
    p.end();
    drain();
    if (!p.broken())
        EXPECT_EQ(p.received(), wire.size()) << "every byte is part of a message";
    return seen;
}

// The events of a recorded stream, the same however it is split.
std::vector<Seen> recordedEvents(const std::string& name, const Document& doc,
                                 const std::vector<std::string>& stepBuffers = {})
{
    const std::string wire = recorded(name);
    std::vector<Seen> whole = events(wire, Feed::Whole, doc, "outputs", stepBuffers);
    EXPECT_EQ(events(wire, Feed::ByteByByte, doc, "outputs", stepBuffers), whole) << name << " split at every byte";
    EXPECT_EQ(events(wire, Feed::StraightIntoFrames, doc, "outputs", stepBuffers), whole)
        << name << " read straight into frames";
    return whole;
}

std::vector<std::string> stagesOf(const std::vector<Seen>& seen, const std::string& id)
{
    std::vector<std::string> stages;
    for (const Seen& s : seen)
        if (s.kind == Kind::Stage && s.id == id)
            stages.push_back(s.stage);
    return stages;
}

const Seen& replyTo(const std::vector<Seen>& seen, const std::string& id)
{
    const auto it
        = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) { return s.kind == Kind::Reply && s.id == id; });
    EXPECT_NE(it, seen.end()) << "no reply to " << id;
    return *it;
}

RunResult decodedRun(Seen& reply)
{
    const RunnerReply decode("recorded");
    return decode.run(decode.result(reply.event.message), reply.event.returned, reply.event.frames);
}

void expectHello(const std::vector<Seen>& seen)
{
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen[0].kind, Kind::Reply);
    EXPECT_EQ(seen[0].id, "1");
    EXPECT_NO_THROW(RunnerReply("recorded").hello(seen[0].event.message));
}

} // namespace

TEST(ClientProtocol, APassingRunYieldsItsStagesItsFrameAndItsResult)
{
    const Document doc = sample("add_vectors_small.kwb");
    std::vector<Seen> seen = recordedEvents("run_passing.bin", doc);
    expectHello(seen);
    EXPECT_EQ(stagesOf(seen, "2"), (std::vector<std::string>{"compile", "upload", "launch", "checks", "download"}));
    ASSERT_EQ(seen.size(), 1u + 5u + 1u + 1u);
    EXPECT_EQ(seen[6].kind, Kind::Buffer);
    EXPECT_EQ(seen[6].buffer, "c");
    Seen& reply = seen[7];
    ASSERT_EQ(reply.kind, Kind::Reply);
    const float expected[3] = {5, 7, 9};
    EXPECT_EQ(reply.frames.at("c"), std::string(reinterpret_cast<const char*>(expected), sizeof expected));
    const RunResult r = decodedRun(reply);
    EXPECT_TRUE(r.ok);
    // Every buffer is listed; only the output came back with its data.
    ASSERT_EQ(r.buffers.size(), 3u);
    EXPECT_EQ(r.buffers[0].data.count(), 0u);
    EXPECT_EQ(r.buffers[2].name, "c");
    EXPECT_EQ(r.buffers[2].data.at(2), 9.0);
}

TEST(ClientProtocol, ADocumentOfStepsBringsItsStepEventsAndTheBuffersAfterTheStepAskedFor)
{
    Document doc = sample("reduction_two_pass.kwb");
    doc.variables[0].second = "1 << 10"; // as record.py ran it
    std::vector<Seen> seen = recordedEvents("steps.bin", doc, {"2"});
    expectHello(seen);
    std::vector<std::string> steps;
    for (const Seen& s : seen)
        if (s.kind == Kind::Step && s.id == "2")
            steps.push_back(s.step);
    EXPECT_EQ(steps, (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(stagesOf(seen, "2"), (std::vector<std::string>{"compile", "launch", "download"}));
    Seen& reply = seen.back();
    ASSERT_EQ(reply.kind, Kind::Reply);
    // The outputs at the end, and every buffer after step 2, each under its own key.
    EXPECT_EQ(reply.frames.size(), 2u + 3u);
    EXPECT_TRUE(reply.frames.count(ReturnedBuffers::frameKey("2", "x")));
    const RunResult r = decodedRun(reply);
    EXPECT_TRUE(r.ok);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_TRUE(r.steps[0].buffers.empty());
    ASSERT_EQ(r.steps[1].buffers.size(), 3u);
    EXPECT_EQ(r.steps[1].buffers[0].name, "x");
    ASSERT_EQ(r.steps[1].buffers[0].data.count(), 1024u);
    EXPECT_EQ(r.steps[1].buffers[0].data.at(17), 1.0) << "x = i % 16";
    EXPECT_EQ(r.steps[1].buffers[1].data.at(3), 1920.0) << "a block's partial sum";
    EXPECT_EQ(r.steps[1].buffers[2].data.at(0), 1024 / 16 * 120.0) << "the total after step 2";
    EXPECT_EQ(r.buffers[2].data.at(0), 1024 / 16 * 120.0);

    // The same frames are refused by a client that did not ask for them.
    const std::vector<Seen> refused = events(recorded("steps.bin"), Feed::Whole, doc);
    ASSERT_FALSE(refused.empty());
    EXPECT_EQ(refused.back().kind, Kind::Broken);
    EXPECT_NE(refused.back().error.find("a step this request does not ask buffers after"), std::string::npos)
        << refused.back().error;
}

TEST(ClientProtocol, ACompileErrorIsAResultWithoutFrames)
{
    const Document doc = sample("add_vectors_small.kwb");
    std::vector<Seen> seen = recordedEvents("compile_error.bin", doc);
    expectHello(seen);
    EXPECT_EQ(stagesOf(seen, "2"), (std::vector<std::string>{"compile", "download"}));
    Seen& reply = seen.back();
    ASSERT_EQ(reply.kind, Kind::Reply);
    EXPECT_TRUE(reply.frames.empty()) << "nothing ran: no frame";
    const RunResult r = decodedRun(reply);
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.compile.ok);
    ASSERT_FALSE(r.compile.diagnostics.empty());
    EXPECT_EQ(r.compile.diagnostics[0].line, 3);
    EXPECT_NE(r.compile.diagnostics[0].message.find("nope"), std::string::npos);
}

TEST(ClientProtocol, APrintfRunBringsItsTaggedLines)
{
    std::vector<Seen> seen = recordedEvents("printf.bin", sample("hello_from_gpu.kwb"));
    expectHello(seen);
    const RunResult r = decodedRun(seen.back());
    EXPECT_TRUE(r.ok);
    ASSERT_EQ(r.printf.lines.size(), 60u);
    EXPECT_EQ(r.printf.lines[0].text, "Hello World from the GPU!");
}

TEST(ClientProtocol, AFaultIsAResultWithoutFramesAndARefusalIsTheRunnersWords)
{
    std::vector<Seen> seen = recordedEvents("fault_and_refusal.bin", sample("add_vectors_small.kwb"));
    expectHello(seen);
    EXPECT_TRUE(std::none_of(seen.begin(), seen.end(), [](const Seen& s) { return s.kind == Kind::Buffer; }))
        << "no frames after a fault";
    const RunResult faulted = decodedRun(const_cast<Seen&>(replyTo(seen, "2")));
    EXPECT_FALSE(faulted.ok);
    ASSERT_TRUE(faulted.fault);
    EXPECT_EQ(faulted.fault->kind, FaultKind::OutOfBounds);
    const Seen& refused = replyTo(seen, "3");
    EXPECT_TRUE(stagesOf(seen, "3").empty());
    try {
        RunnerReply("recorded").result(refused.event.message);
        ADD_FAILURE() << "a refusal was taken for a result";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("no-device: ", 0), 0u) << e.what();
    }
}

TEST(ClientProtocol, ARunCutOffByAKilledRunnerHasStagesAndNoReply)
{
    std::vector<Seen> seen = recordedEvents("cancelled.bin", sample("add_vectors_small.kwb"));
    expectHello(seen);
    EXPECT_EQ(stagesOf(seen, "2"), (std::vector<std::string>{"compile", "upload", "launch"}));
    EXPECT_EQ(seen.size(), 4u) << "no reply, and the end of the output is no breach";
}

TEST(ClientProtocol, RequestsGoOutAsTheirWireBytes)
{
    ClientProtocol p;
    const std::vector<std::byte> payload(5, std::byte{7});
    const json header = protocol::request(4, protocol::op::kRun);
    const std::string wire = p.send(header, payload);
    EXPECT_EQ(wire, protocol::encode(header, payload.data(), payload.size()));
    EXPECT_EQ(p.sent(), wire.size());
    const std::string reply = protocol::encode(protocol::reply(4, json::object()));
    p.receive(reply.data(), reply.size());
    const auto e = p.next();
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, Kind::Reply);
    EXPECT_EQ(e->id, 4);
}

TEST(ClientProtocol, MessagesOfOtherRequestsAreSkippedAndABreachEndsTheConversationInOrder)
{
    const Document doc = sample("add_vectors_small.kwb");
    std::string wire = protocol::encode(protocol::stageEvent(9, "compile")) // not waited for
        + "not json\n"                                                      // reported, not a breach
        + protocol::encode(protocol::stageEvent(2, "compile"))              // ours
        + protocol::encode(protocol::stageEvent(2, "launch"), "abcd", 4)    // a payload on a stage event
        + protocol::encode(protocol::reply(2, json::object()));             // never read
    const std::vector<Seen> seen = events(wire, Feed::ByteByByte, doc);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].kind, Kind::Unreadable);
    EXPECT_NE(seen[0].error.find("not valid JSON"), std::string::npos) << seen[0].error;
    EXPECT_EQ(seen[0].event.line, "not json");
    EXPECT_EQ(seen[1].kind, Kind::Stage);
    EXPECT_EQ(seen[1].stage, "compile");
    EXPECT_EQ(seen[2].kind, Kind::Broken);
    EXPECT_NE(seen[2].error.find("not a buffer frame"), std::string::npos) << seen[2].error;
}

TEST(ClientProtocol, AFrameRefusedByItsHeaderAndAnOutputEndingInsideAFrameAreBreaches)
{
    const Document doc = sample("add_vectors_small.kwb");
    const json frame = protocol::eventMessage(2, protocol::event::kBuffer,
                                              {{"name", "c"}, {"dtype", "f32"}, {"count", 3}, {"shape", {3}}});
    const std::string twelve(12, '\0');
    json lying = frame;
    lying["count"] = std::uint64_t(1) << 42;
    std::vector<Seen> seen = events(protocol::encode(lying, twelve.data(), 12), Feed::Whole, doc);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].kind, Kind::Broken);
    EXPECT_NE(seen[0].error.find("4398046511104 elements"), std::string::npos) << seen[0].error;

    const std::string whole = protocol::encode(frame, twelve.data(), 12);
    const std::string cut = whole.substr(0, whole.size() - 7);
    seen = events(cut, Feed::ByteByByte, doc);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].kind, Kind::Broken);
    EXPECT_NE(seen[0].error.find("ended inside a binary frame of 12 bytes"), std::string::npos) << seen[0].error;
}
