// The serve protocol through a real `kwb-run serve` child process (no GPU needed).
#include "gpu/ChildProcess.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using kwtest::ChildProcess;
using nlohmann::json;

namespace {

json sampleDocument(const std::string& name)
{
    std::ifstream in(std::string(KW_SAMPLES_DIR) + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

json request(int id, const std::string& op, json extra = json::object())
{
    extra["v"] = 1;
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
    EXPECT_EQ(hello["v"], 1);
    EXPECT_EQ(hello["result"]["protocol"], 1);
    EXPECT_TRUE(hello["result"]["devices"].is_array());

    serve.send(request(2, "devices"));
    json devices = serve.replyFor(2);
    ASSERT_TRUE(devices["ok"].get<bool>()) << devices.dump();
    EXPECT_TRUE(devices["result"].contains("driver"));

    // Compile for the PTX of a default virtual arch when no device is named.
    json doc = sampleDocument("add_vectors_small.kwb");
    serve.send(request(3, "compile", {{"document", doc}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    json compiled = serve.replyFor(3);
    if (!compiled["ok"].get<bool>()) {
        // Without the sim backend in this build a compile for "sim" is refused cleanly.
        EXPECT_EQ(compiled["error"]["category"], "no-device") << compiled.dump();
    } else {
        EXPECT_TRUE(compiled["result"]["ok"].get<bool>());
        EXPECT_FALSE(compiled["result"]["ptx"].get<std::string>().empty());
    }

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
        if (!reply["ok"].get<bool>()) {
            // No GPU and no simulator: nothing to compile for is a clean error too.
            EXPECT_EQ(reply["error"]["category"], "no-device") << reply.dump();
            continue;
        }
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

    serve.send({{"v", 2}, {"id", 6}, {"op", "hello"}});
    EXPECT_FALSE(serve.replyFor(6)["ok"].get<bool>());

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
    ChildProcess serve({"serve", "--pending-fd", std::to_string(fd)}, fd);
    serve.send(request(3, "shutdown"));
    json first = serve.replyFor(1);
    EXPECT_EQ(first["result"]["protocol"], 1);
    json second = serve.replyFor(2);
    EXPECT_TRUE(second["result"].contains("devices"));
    EXPECT_TRUE(serve.replyFor(3)["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
    std::fclose(f);
}
