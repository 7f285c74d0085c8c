// The serve protocol through a real `kwb-run serve` child process (no GPU needed).
#include "gpu/ChildProcess.hpp"
#include "serve/Protocol.hpp"

#include "support/Samples.hpp"
#include "support/ScopedEnvironment.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

using kw::test::sampleDocument;
using kwtest::ChildProcess;
using nlohmann::json;

namespace {

json request(int id, const std::string& op, json extra = json::object())
{
    extra["v"] = kw::protocol::kVersion;
    extra["id"] = id;
    extra["op"] = op;
    return extra;
}

} // namespace

TEST(Serve, HelloDevicesCompileAndShutdown)
{
    ChildProcess serve({"serve"});
    serve.send(request(1, "hello"));
    json hello = serve.replyFor(1);
    ASSERT_TRUE(hello["ok"].get<bool>()) << hello.dump();
    EXPECT_EQ(hello["v"], kw::protocol::kVersion);
    EXPECT_EQ(hello["result"]["protocol"], kw::protocol::kVersion);
    EXPECT_TRUE(hello["result"]["devices"].is_array());

    serve.send(request(2, "devices"));
    json devices = serve.replyFor(2);
    ASSERT_TRUE(devices["ok"].get<bool>()) << devices.dump();
    EXPECT_TRUE(devices["result"].contains("driver"));

    // Compile for the PTX of a default virtual arch when no device is named.
    json doc = sampleDocument("add_vectors_small.kwb");
    serve.send(request(3, "compile", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    json compiled = serve.replyFor(3);
    ASSERT_TRUE(compiled["ok"].get<bool>()) << "the sim device is always there: " << compiled.dump();
    EXPECT_TRUE(compiled["result"]["ok"].get<bool>()) << compiled.dump();
    EXPECT_NE(compiled["result"]["ptx"].get<std::string>().find(".entry"), std::string::npos);

    serve.send(request(4, "shutdown"));
    json bye = serve.replyFor(4);
    EXPECT_TRUE(bye["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
}

TEST(Serve, ManyCompileJobsInOneProcessIncludingErrors)
{
    ChildProcess serve({"serve"});
    json doc = sampleDocument("add_vectors_small.kwb");
    // A document may carry its own arch: then no device is needed to compile it.
    doc["options"]["arch"] = "compute_75";
    json broken = doc;
    broken["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n{\n  c[0] = nope;\n}\n";
    for (int id = 10; id < 16; ++id) {
        const bool bad = id % 2;
        serve.send(request(id, "compile", {{"document", bad ? broken : doc}, {"base_dir", KW_SAMPLES_DIR}}));
    }
    for (int id = 10; id < 16; ++id) {
        json reply = serve.replyFor(id);
        const bool bad = id % 2;
        ASSERT_TRUE(reply["ok"].get<bool>()) << "a compile error is a result, not a refusal: " << reply.dump();
        const json& r = reply["result"];
        EXPECT_EQ(r["ok"].get<bool>(), !bad) << r.dump();
        if (bad) {
            ASSERT_FALSE(r["diagnostics"].empty());
            EXPECT_EQ(r["diagnostics"][0]["line"], 3);
        }
    }
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(Serve, MalformedAndUnknownRequestsGetErrorsAndTheRunnerGoesOn)
{
    ChildProcess serve({"serve"});
    serve.write("this is not json\n");
    auto err = serve.receive();
    ASSERT_TRUE(err);
    EXPECT_FALSE((*err)["ok"].get<bool>());
    EXPECT_TRUE((*err)["id"].is_null());
    EXPECT_EQ((*err)["error"]["category"], "protocol");

    serve.send(request(5, "fly"));
    json unknown = serve.replyFor(5);
    EXPECT_FALSE(unknown["ok"].get<bool>());
    EXPECT_NE(unknown["error"]["message"].get<std::string>().find("fly"), std::string::npos);

    // A client of another version gets one message naming both versions.
    serve.send({{"v", kw::protocol::kVersion + 1}, {"id", 6}, {"op", "hello"}});
    json other = serve.replyFor(6);
    EXPECT_FALSE(other["ok"].get<bool>());
    EXPECT_EQ(other["error"]["message"],
              kw::protocol::versionMismatch(kw::protocol::kVersion, kw::protocol::kVersion + 1));

    // So do a client of version 1 and one that names no version at all (read as 0),
    // whatever it asks for.
    serve.send({{"v", 1}, {"id", 61}, {"op", "run"}});
    json first = serve.replyFor(61);
    EXPECT_FALSE(first["ok"].get<bool>());
    EXPECT_EQ(first["error"]["category"], "protocol");
    EXPECT_EQ(first["error"]["message"], kw::protocol::versionMismatch(kw::protocol::kVersion, 1));
    serve.send({{"id", 62}, {"op", "hello"}});
    json unversioned = serve.replyFor(62);
    EXPECT_FALSE(unversioned["ok"].get<bool>());
    EXPECT_EQ(unversioned["error"]["message"], kw::protocol::versionMismatch(kw::protocol::kVersion, 0));

    json bad = sampleDocument("add_vectors_small.kwb");
    bad["buffers"][0]["dtype"] = "f33";
    serve.send(request(7, "run", {{"document", bad}, {"base_dir", KW_SAMPLES_DIR}}));
    json refused = serve.replyFor(7);
    EXPECT_FALSE(refused["ok"].get<bool>());
    EXPECT_EQ(refused["error"]["category"], "document") << refused.dump();

    serve.send(request(8, "hello"));
    EXPECT_TRUE(serve.replyFor(8)["ok"].get<bool>());
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

// The runner's own watchdog: a job still running at its limit gets a timeout reply, the
// runner replaces itself, and the request that was waiting behind the job is served by
// the replacement. KWB_RUNNER_WATCHDOG_MS brings the limit (normally a minute past the
// document's own) down to 1.5 s, well before the simulator's own 60 s time limit.
TEST(Serve, TheWatchdogAnswersAStuckJobAndTheRunnerReplacesItself)
{
    json doc = sampleDocument("add_vectors_small.kwb");
    doc["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                    "{\n    volatile int spin = 0;\n    while (spin >= 0) spin = (spin + 1) & 0xffff;\n}\n";
    doc["run"] = {{"time_limit_s", 60}, {"warmup", 0}, {"repeats", 0}};
    doc["checks"] = json::array();

    std::optional<ChildProcess> started;
    {
        const kw::test::ScopedEnvironment watchdog("KWB_RUNNER_WATCHDOG_MS", "1500");
        started.emplace(std::vector<std::string>{"serve"});
    }
    ChildProcess& serve = *started;
    const auto t0 = std::chrono::steady_clock::now();
    serve.send(request(1, "run", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    serve.send(request(2, "hello")); // read by the stuck runner, not served by it
    const json stuck = serve.replyFor(1, std::chrono::seconds(30));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(stuck["ok"].get<bool>()) << stuck.dump(2);
    const json& fault = stuck["result"]["fault"];
    ASSERT_TRUE(fault.is_object()) << stuck.dump(2);
    EXPECT_EQ(fault["kind"], "timeout");
    EXPECT_EQ(fault["message"], "the job did not finish within 1.5 s; the runner was restarted");
    EXPECT_LT(seconds, 30.0) << "the simulator's own time limit answered, not the watchdog";

    const json hello = serve.replyFor(2, std::chrono::seconds(60));
    EXPECT_TRUE(hello["ok"].get<bool>()) << hello.dump();
    EXPECT_EQ(hello["result"]["protocol"], kw::protocol::kVersion);
    // The replacement runs jobs as before.
    serve.send(request(
        3, "run",
        {{"document", sampleDocument("add_vectors_small.kwb")}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    const json again = serve.replyFor(3, std::chrono::seconds(60));
    ASSERT_TRUE(again["ok"].get<bool>()) << again.dump(2);
    EXPECT_TRUE(again["result"]["ok"].get<bool>()) << again.dump(2);
    serve.send(request(4, "shutdown"));
    EXPECT_TRUE(serve.replyFor(4)["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
}

TEST(Serve, PendingInputHandedOverByAPreviousRunnerIsServedFirst)
{
    // What a runner that replaces itself passes on: requests it had read but not served.
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    const std::string pending = request(1, "hello").dump() + "\n" + request(2, "devices").dump() + "\n";
    std::fwrite(pending.data(), 1, pending.size(), f);
    std::fflush(f);
    std::rewind(f);
    const int fd = fileno(f);
    ChildProcess serve({"serve", "--pending-fd", kwtest::inheritedNumber(fd)}, fd);
    serve.send(request(3, "shutdown"));
    json first = serve.replyFor(1);
    EXPECT_EQ(first["result"]["protocol"], kw::protocol::kVersion);
    json second = serve.replyFor(2);
    EXPECT_TRUE(second["result"].contains("devices"));
    EXPECT_TRUE(serve.replyFor(3)["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
    std::fclose(f);
}

TEST(Serve, RunJobsOnTheSimBackendSendStagesBufferFramesAndResults)
{
    ChildProcess serve({"serve"});
    serve.send(request(1, "run",
                       {{"document", sampleDocument("add_vectors_small.kwb")},
                        {"base_dir", KW_SAMPLES_DIR},
                        {"device", "sim"},
                        {"return_buffers", "outputs"}}));
    std::vector<std::string> stages;
    std::map<std::string, std::vector<char>> frames;
    json final;
    for (;;) {
        auto m = serve.receive();
        ASSERT_TRUE(m) << serve.readStderr();
        EXPECT_EQ((*m)["id"], 1);
        if (m->value("event", "") == "stage")
            stages.push_back((*m)["stage"]);
        if (m->value("event", "") == "buffer") {
            EXPECT_EQ((*m)["dtype"], "f32");
            EXPECT_EQ((*m)["count"], 3);
            frames[(*m)["name"]] = serve.readBytes((*m)["binary"].get<std::size_t>());
        }
        if (!m->contains("event")) {
            final = *m;
            break;
        }
    }
    ASSERT_TRUE(final["ok"].get<bool>()) << final.dump(2);
    const json& r = final["result"];
    EXPECT_TRUE(r["ok"].get<bool>()) << r.dump(2);
    EXPECT_EQ(r["device"]["id"], "sim");
    EXPECT_TRUE(r["checks"][0]["passed"].get<bool>());
    ASSERT_EQ(stages.front(), "compile");
    EXPECT_NE(std::find(stages.begin(), stages.end(), "launch"), stages.end());
    // Only the output buffer comes back, with c = a + b = {5, 7, 9}.
    ASSERT_EQ(frames.size(), 1u);
    ASSERT_EQ(frames["c"].size(), 12u);
    float c[3];
    std::memcpy(c, frames["c"].data(), 12);
    EXPECT_EQ(c[0], 5.0f);
    EXPECT_EQ(c[1], 7.0f);
    EXPECT_EQ(c[2], 9.0f);

    // printf through the simulator, tagged with block and thread.
    serve.send(
        request(2, "run",
                {{"document", sampleDocument("hello_from_gpu.kwb")}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    json hello = serve.replyFor(2);
    ASSERT_TRUE(hello["ok"].get<bool>()) << hello.dump(2);
    EXPECT_EQ(hello["result"]["printf"]["lines"].size(), 60u);

    // A fault is a result, and the runner goes on.
    json faulty = sampleDocument("add_vectors_small.kwb");
    faulty["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                       "{ c[threadIdx.x + 1000000] = a[0] + b[0]; }\n";
    faulty.erase("checks");
    serve.send(request(3, "run", {{"document", faulty}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    json fault = serve.replyFor(3);
    ASSERT_TRUE(fault["ok"].get<bool>()) << fault.dump(2);
    EXPECT_FALSE(fault["result"]["ok"].get<bool>());
    EXPECT_FALSE(fault["result"]["fault"].is_null());
    serve.send(request(4, "run",
                       {{"document", sampleDocument("add_vectors_small.kwb")},
                        {"base_dir", KW_SAMPLES_DIR},
                        {"device", "sim"},
                        {"return_buffers", "none"}}));
    EXPECT_TRUE(serve.replyFor(4)["result"]["ok"].get<bool>());
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(Serve, ARequestForADeviceThatCannotBeOpenedIsRefusedAndTheNextRequestIsServed)
{
    // cuda:99 opens nowhere (nor does any cuda:N without a driver). The runner once kept an
    // empty backend for it, crashed on the error path after replying and lost what followed.
    ChildProcess serve({"serve"});
    const json doc = sampleDocument("add_vectors_small.kwb");
    serve.send(request(1, "run", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "cuda:99"}}));
    const json refused = serve.replyFor(1);
    EXPECT_FALSE(refused["ok"].get<bool>()) << refused.dump();
    serve.send(request(2, "compile", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "cuda:99"}}));
    const json notCompiled = serve.replyFor(2);
    EXPECT_FALSE(notCompiled["ok"].get<bool>()) << notCompiled.dump();
    serve.send(request(3, "run", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    const json served = serve.replyFor(3);
    ASSERT_TRUE(served["ok"].get<bool>()) << served.dump(2);
    EXPECT_TRUE(served["result"]["ok"].get<bool>()) << served.dump(2);
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0) << serve.readStderr();
}
