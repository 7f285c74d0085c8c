// Sessions of the serve protocol (docs/protocol.md, "Sessions") through a real
// `kwb-run serve` child process: a session stays open across messages while other
// requests are served, and every misuse is refused with a message.
#include "gpu/ChildProcess.hpp"
#include "serve/Protocol.hpp"

#include "support/Samples.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using kwtest::ChildProcess;
using nlohmann::json;

namespace {

json request(int id, const std::string& op, json members = json::object())
{
    return kw::protocol::request(id, op, std::move(members));
}

// The messages of request `id` up to its final reply (payloads skipped), the reply last.
std::vector<json> conversation(ChildProcess& serve, int id)
{
    std::vector<json> messages;
    for (;;) {
        auto m = serve.receive();
        if (!m)
            throw std::runtime_error("no reply for request " + std::to_string(id) + "; stderr: " + serve.readStderr());
        if (m->contains("binary"))
            serve.readBytes((*m)["binary"].get<std::size_t>());
        if (m->value("id", -1) != id)
            continue;
        messages.push_back(*m);
        if (!m->contains("event"))
            return messages;
    }
}

std::string openEcho(ChildProcess& serve, int id)
{
    serve.send(request(id, "open", {{"kind", "echo"}}));
    const json opened = serve.replyFor(id);
    EXPECT_TRUE(opened["ok"].get<bool>()) << opened.dump();
    EXPECT_EQ(opened["result"]["kind"], "echo");
    return opened["result"]["session"].get<std::string>();
}

std::string refusal(ChildProcess& serve, const json& request)
{
    serve.send(request);
    const json reply = serve.replyFor(request["id"].get<int>());
    EXPECT_FALSE(reply["ok"].get<bool>()) << reply.dump();
    EXPECT_EQ(reply["error"]["category"], "protocol") << reply.dump();
    return reply["error"]["message"].get<std::string>();
}

} // namespace

TEST(ServeSessions, ASessionTakesSeveralMessagesWhileOtherRequestsAreServed)
{
    ChildProcess serve({"serve"});
    const std::string s = openEcho(serve, 1);

    serve.send(request(2, "message", {{"session", s}, {"body", {{"n", 1}}}}));
    std::vector<json> first = conversation(serve, 2);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0]["event"], "received");
    EXPECT_EQ(first[0]["payload_bytes"], 0);
    ASSERT_TRUE(first[1]["ok"].get<bool>()) << first[1].dump();
    EXPECT_EQ(first[1]["result"]["echo"], json({{"n", 1}}));
    EXPECT_EQ(first[1]["result"]["messages"], 1);

    // Another job meanwhile: the session does not hold the runner.
    json doc = kw::test::sampleDocument("add_vectors_small.kwb");
    doc["options"]["arch"] = "compute_75";
    serve.send(request(3, "compile", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}}));
    const json compiled = serve.replyFor(3);
    ASSERT_TRUE(compiled["ok"].get<bool>()) << compiled.dump();
    EXPECT_TRUE(compiled["result"]["ok"].get<bool>());

    // The second message, with a payload, reaches the same session: it counts both.
    serve.write(kw::protocol::encode(request(4, "message", {{"session", s}, {"body", "two"}}), "abcd", 4));
    std::vector<json> second = conversation(serve, 4);
    ASSERT_EQ(second.size(), 2u);
    EXPECT_EQ(second[0]["payload_bytes"], 4);
    EXPECT_EQ(second[1]["result"]["echo"], "two");
    EXPECT_EQ(second[1]["result"]["messages"], 2);

    // A second session is its own.
    const std::string other = openEcho(serve, 5);
    EXPECT_NE(other, s);
    serve.send(request(6, "message", {{"session", other}, {"body", 6}}));
    EXPECT_EQ(serve.replyFor(6)["result"]["messages"], 1);

    serve.send(request(7, "close", {{"session", s}}));
    EXPECT_TRUE(serve.replyFor(7)["ok"].get<bool>());
    EXPECT_NE(refusal(serve, request(8, "message", {{"session", s}, {"body", 1}})).find("is closed"),
              std::string::npos);
    EXPECT_NE(refusal(serve, request(9, "close", {{"session", s}})).find("is closed"), std::string::npos);
    // The other session lives on.
    serve.send(request(10, "message", {{"session", other}, {"body", 10}}));
    EXPECT_EQ(serve.replyFor(10)["result"]["messages"], 2);

    serve.send(request(11, "shutdown"));
    EXPECT_TRUE(serve.replyFor(11)["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
}

TEST(ServeSessions, UnknownSessionsAndKindsAndTooManySessionsAreRefused)
{
    ChildProcess serve({"serve"});
    EXPECT_NE(refusal(serve, request(1, "message", {{"session", "0-1"}, {"body", 1}})).find("no session \"0-1\""),
              std::string::npos);
    EXPECT_NE(refusal(serve, request(2, "message", {{"body", 1}})).find("without a \"session\""), std::string::npos);
    EXPECT_NE(refusal(serve, request(3, "message", {{"session", 5}})).find("\"session\""), std::string::npos);
    EXPECT_NE(refusal(serve, request(4, "open", {{"kind", "teleport"}})).find("unknown session kind \"teleport\""),
              std::string::npos);

    std::vector<std::string> open;
    for (int id = 10; id < 26; ++id)
        open.push_back(openEcho(serve, id));
    EXPECT_NE(refusal(serve, request(30, "open", {{"kind", "echo"}})).find("too many sessions"), std::string::npos);
    serve.send(request(31, "close", {{"session", open[3]}}));
    EXPECT_TRUE(serve.replyFor(31)["ok"].get<bool>());
    openEcho(serve, 32); // room again

    serve.send(request(33, "hello"));
    EXPECT_TRUE(serve.replyFor(33)["ok"].get<bool>()) << "the runner goes on";
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(ServeSessions, ADebugSessionHoldsALaunchBetweenMessages)
{
    ChildProcess serve({"serve"});
    json doc = kw::test::sampleDocument("reduction_shared.kwb");
    serve.send(
        request(1, "open", {{"kind", "debug"}, {"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"trust", true}}));
    const json opened = serve.replyFor(1);
    ASSERT_TRUE(opened["ok"].get<bool>()) << opened.dump();
    const std::string s = opened["result"]["session"].get<std::string>();
    auto command = [&](int id, const std::string& text) {
        serve.send(request(id, "message", {{"session", s}, {"body", {{"command", text}}}}));
        const json reply = serve.replyFor(id);
        EXPECT_TRUE(reply["ok"].get<bool>()) << reply.dump();
        return reply["result"];
    };
    EXPECT_EQ(command(2, "where")["stop"]["reason"], "entry");
    EXPECT_EQ(command(3, "break 18")["text"], "breakpoint 1 at kernel.cu:18\n");
    const json hit = command(4, "continue");
    EXPECT_EQ(hit["stop"]["reason"], "breakpoint");
    EXPECT_EQ(hit["stop"]["position"], 157);
    EXPECT_EQ(command(5, "continue")["focus"]["warp"], 1); // the same launch, still held
    EXPECT_NE(command(6, "lanes threadIdx.x")["text"].get<std::string>().find(" 31 # 63"), std::string::npos);
    // A message that is not a command is refused; the session stays open.
    serve.send(request(7, "message", {{"session", s}, {"body", "continue"}}));
    EXPECT_FALSE(serve.replyFor(7)["ok"].get<bool>());
    EXPECT_EQ(command(8, "where")["stop"]["position"], 170);
    serve.send(request(9, "close", {{"session", s}}));
    EXPECT_TRUE(serve.replyFor(9)["ok"].get<bool>());
}

// "slice_ms" (the window's Pause): a continue still running after that long stops where
// it is, reason "paused", and sending it again goes on as one continue would have: the
// same stop at the same position, the breakpoint counted once.
TEST(ServeSessions, ASlicedContinueStopsWhereAWholeOneDoes)
{
    ChildProcess serve({"serve"});
    json doc = kw::test::sampleDocument("reduction_shared.kwb");
    auto open = [&](int id) {
        serve.send(
            request(id, "open", {{"kind", "debug"}, {"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"trust", true}}));
        const json opened = serve.replyFor(id);
        EXPECT_TRUE(opened["ok"].get<bool>()) << opened.dump();
        return opened["result"]["session"].get<std::string>();
    };
    int id = 1;
    auto command = [&](const std::string& s, const std::string& text, int sliceMs = 0) {
        json body = {{"command", text}};
        if (sliceMs)
            body["slice_ms"] = sliceMs;
        serve.send(request(id, "message", {{"session", s}, {"body", body}}));
        const json reply = serve.replyFor(id++);
        EXPECT_TRUE(reply["ok"].get<bool>()) << reply.dump();
        return reply["result"];
    };
    const std::string whole = open(id++), sliced = open(id++);
    for (const std::string& s : {whole, sliced})
        command(s, "break 18 if blockIdx.x == 250");
    const json once = command(whole, "continue");
    ASSERT_EQ(once["stop"]["reason"], "breakpoint") << once.dump();
    int pauses = 0;
    json last;
    for (int i = 0; i < 100000; ++i) {
        last = command(sliced, "continue", 1);
        if (last["stop"]["reason"] != "paused")
            break;
        EXPECT_LT(last["stop"]["position"].get<std::uint64_t>(), once["stop"]["position"].get<std::uint64_t>());
        ++pauses;
    }
    EXPECT_GT(pauses, 0) << "no slice ended before the breakpoint: the test says nothing";
    EXPECT_EQ(last["stop"]["reason"], "breakpoint") << last.dump();
    EXPECT_EQ(last["stop"]["position"], once["stop"]["position"]);
    EXPECT_EQ(last["focus"], once["focus"]);
    EXPECT_EQ(last["breakpoints"][0]["hits"], 1);
    // No pause is left over for a motion sent without slices.
    EXPECT_EQ(command(sliced, "step")["stop"]["reason"], command(whole, "step")["stop"]["reason"]);
    serve.send(request(id, "message", {{"session", sliced}, {"body", {{"command", "continue"}, {"slice_ms", -1}}}}));
    EXPECT_FALSE(serve.replyFor(id++)["ok"].get<bool>());
}

// The reply's values (docs/protocol.md, "Sessions"): what a window shows without reading
// the console's text, compared with the host's reduction (block 0 holds 0..255).
TEST(ServeSessions, ADebugReplyCarriesTheStateAsValues)
{
    ChildProcess serve({"serve"});
    json doc = kw::test::sampleDocument("reduction_shared.kwb");
    serve.send(
        request(1, "open", {{"kind", "debug"}, {"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"trust", true}}));
    const json opened = serve.replyFor(1);
    ASSERT_TRUE(opened["ok"].get<bool>()) << opened.dump();
    const std::string s = opened["result"]["session"].get<std::string>();
    int id = 2;
    auto command = [&](const std::string& text) {
        serve.send(request(id, "message", {{"session", s}, {"body", {{"command", text}}}}));
        const json reply = serve.replyFor(id++);
        EXPECT_TRUE(reply["ok"].get<bool>()) << reply.dump();
        return reply["result"];
    };
    const json entry = command("where");
    EXPECT_EQ(entry["blocks"], 256);
    EXPECT_EQ(entry["warps_per_block"], 8);
    EXPECT_EQ(entry["shared_bytes"], 1024);
    EXPECT_EQ(entry["warp"]["where"]["line"], 5);
    EXPECT_EQ(entry["warps"].size(), 8u);
    ASSERT_EQ(entry["frames"].size(), 1u);
    EXPECT_EQ(entry["frames"][0]["where"]["file"], "kernel.cu");

    command("break 18 if threadIdx.x >= 0 ignore 0");
    const json listed = command("info breakpoints");
    ASSERT_EQ(listed["breakpoints"].size(), 1u);
    EXPECT_EQ(listed["breakpoints"][0]["line"], 18);
    EXPECT_EQ(listed["breakpoints"][0]["condition"], "threadIdx.x >= 0");
    EXPECT_EQ(listed["breakpoints"][0]["all"], false);

    const json hit = command("continue");
    EXPECT_EQ(hit["stop"]["reason"], "breakpoint");
    EXPECT_EQ(hit["stop"]["breakpoint"], 1);
    EXPECT_EQ(hit["warp"]["where"]["line"], 18);
    ASSERT_EQ(hit["warp"]["groups"].size(), 1u);
    EXPECT_EQ(hit["warp"]["groups"][0]["state"], "active");
    EXPECT_EQ(hit["warp"]["groups"][0]["lanes"], 0xffffffffu);
    EXPECT_EQ(hit["breakpoints"][0]["hits"], 1);
    for (int i = 0; i < 6; ++i)
        command("stepi"); // to the store: %f4 and %f5 loaded
    const json lanes = command("lanes %f4 %f5");
    ASSERT_EQ(lanes["lanes"]["expressions"], json({"%f4", "%f5"}));
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(lanes["lanes"]["values"][0][t]["number"].get<double>(), t);
        EXPECT_EQ(lanes["lanes"]["values"][1][t]["number"].get<double>(), t + 128);
    }
    EXPECT_FALSE(command("lanes nothing_here(").contains("lanes")) << "a refused view has only its text";

    command("delete 1");
    command("barrier");
    const json shared = command("shared f32 0 64");
    ASSERT_EQ(shared["shared"]["words"].size(), 64u);
    EXPECT_EQ(shared["shared"]["type"], "f32");
    for (int t = 0; t < 64; ++t) {
        EXPECT_EQ(shared["shared"]["words"][t]["value"].get<double>(), 2 * t + 128);
        EXPECT_EQ(shared["shared"]["words"][t]["bank"].get<int>(), t % 32);
        EXPECT_EQ(shared["shared"]["words"][t]["offset"].get<int>(), 4 * t);
    }

    command("watch block_sums(1)");
    const json watched = command("continue");
    ASSERT_EQ(watched["stop"]["reason"], "watch") << watched.dump();
    EXPECT_EQ(watched["stop"]["watch"]["block"], 1);
    EXPECT_EQ(watched["stop"]["watch"]["lane"], 0);
    EXPECT_EQ(watched["stop"]["watch"]["write"], true);
    EXPECT_EQ(watched["watches"][0]["buffer"], "block_sums");
    command("delete watch 1");
    const json finished = command("continue");
    EXPECT_EQ(finished["stop"]["reason"], "finished");
    EXPECT_TRUE(finished["ended"].get<bool>());
    EXPECT_FALSE(finished.contains("warp")) << "no warp once every block has run";
    EXPECT_EQ(finished["breakpoints"].size(), 0u);
    serve.send(request(id, "close", {{"session", s}}));
    EXPECT_TRUE(serve.replyFor(id)["ok"].get<bool>());
}
