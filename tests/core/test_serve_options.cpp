// The serve protocol's request options on the simulator, through a real
// `kwb-run serve`: which buffers come back for each `return_buffers`, with their
// values; a document sent as text; and a job stuck in an endless kernel, stopped at
// its time limit, with the job queued behind it served next.
#include "gpu/ChildProcess.hpp"

#include "serve/Protocol.hpp"

#include "support/Samples.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using kw::test::sampleDocument;
using kwtest::ChildProcess;
using nlohmann::json;

namespace {

struct Reply {
    json final;
    std::map<std::string, json> frameHeaders;
    std::map<std::string, std::vector<float>> frames;
};

Reply runJob(ChildProcess& serve, int id, const json& document, const std::string& returnBuffers)
{
    json request = kw::protocol::request(id, kw::protocol::op::kRun,
                                         {{"document", document}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}});
    if (!returnBuffers.empty())
        request["return_buffers"] = returnBuffers;
    serve.send(request);
    Reply r;
    for (;;) {
        auto m = serve.receive();
        if (!m)
            throw std::runtime_error("no reply; stderr: " + serve.readStderr());
        if (m->contains("binary")) {
            const auto bytes = serve.readBytes((*m)["binary"].get<std::size_t>());
            std::vector<float> values(bytes.size() / sizeof(float));
            std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
            r.frames[(*m)["name"]] = values;
            r.frameHeaders[(*m)["name"]] = *m;
        }
        if (m->value("id", -1) == id && !m->contains("event")) {
            r.final = *m;
            return r;
        }
    }
}

} // namespace

TEST(ServeOptions, ReturnBuffersChoosesWhichFramesComeBackWithTheirValues)
{
    ChildProcess serve({"serve"});
    const json doc = sampleDocument("add_vectors_small.kwb"); // a = 1 2 3, b = 4 5 6, c = a + b

    const Reply all = runJob(serve, 1, doc, "all");
    ASSERT_TRUE(all.final["ok"].get<bool>()) << all.final.dump(2);
    ASSERT_EQ(all.frames.size(), 3u);
    EXPECT_EQ(all.frames.at("a"), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(all.frames.at("b"), (std::vector<float>{4, 5, 6}));
    EXPECT_EQ(all.frames.at("c"), (std::vector<float>{5, 7, 9}));
    EXPECT_EQ(all.frameHeaders.at("c")["dtype"], "f32");
    EXPECT_EQ(all.frameHeaders.at("c")["count"], 3);
    EXPECT_EQ(all.frameHeaders.at("c")["shape"], json::array({3}));

    const Reply outputs = runJob(serve, 2, doc, "outputs");
    ASSERT_TRUE(outputs.final["result"]["ok"].get<bool>()) << outputs.final.dump(2);
    ASSERT_EQ(outputs.frames.size(), 1u);
    EXPECT_EQ(outputs.frames.at("c"), (std::vector<float>{5, 7, 9}));

    const Reply byDefault = runJob(serve, 3, doc, "");
    EXPECT_EQ(byDefault.frames.size(), 1u) << "outputs is the default";
    EXPECT_TRUE(byDefault.frames.count("c"));

    const Reply none = runJob(serve, 4, doc, "none");
    EXPECT_TRUE(none.final["result"]["ok"].get<bool>());
    EXPECT_TRUE(none.frames.empty());
    EXPECT_EQ(none.final["result"]["buffers"].size(), 3u) << "the result still describes every buffer";

    const Reply bad = runJob(serve, 5, doc, "some");
    EXPECT_FALSE(bad.final["ok"].get<bool>());
    EXPECT_EQ(bad.final["error"]["category"], "protocol");
    EXPECT_NE(bad.final["error"]["message"].get<std::string>().find("return_buffers"), std::string::npos);
    EXPECT_TRUE(bad.frames.empty());

    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(ServeOptions, ADocumentSentAsTextIsTheSameDocument)
{
    ChildProcess serve({"serve"});
    const json doc = sampleDocument("add_vectors_small.kwb");
    const Reply asText = runJob(serve, 1, json(doc.dump(2)), "outputs");
    ASSERT_TRUE(asText.final["ok"].get<bool>()) << asText.final.dump(2);
    EXPECT_TRUE(asText.final["result"]["ok"].get<bool>());
    EXPECT_EQ(asText.frames.at("c"), (std::vector<float>{5, 7, 9}));
    ASSERT_EQ(asText.final["result"]["checks"].size(), 1u);
    EXPECT_TRUE(asText.final["result"]["checks"][0]["passed"].get<bool>());

    serve.send(kw::protocol::request(2, kw::protocol::op::kCompile,
                                     {{"document", doc.dump()}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    const json compiled = serve.replyFor(2);
    ASSERT_TRUE(compiled["ok"].get<bool>()) << compiled.dump(2);
    EXPECT_NE(compiled["result"]["ptx"].get<std::string>().find(".entry"), std::string::npos);

    const Reply broken = runJob(serve, 3, json("{ \"format\": \"kernel-workbench\", "), "none");
    EXPECT_FALSE(broken.final["ok"].get<bool>());
    EXPECT_EQ(broken.final["error"]["category"], "document") << broken.final.dump(2);

    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(ServeOptions, AStuckJobStopsAtItsTimeLimitAndTheJobQueuedBehindItRuns)
{
    ChildProcess serve({"serve"});
    json stuck = sampleDocument("add_vectors_small.kwb");
    stuck["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                      "{ volatile int x = 0; while (true) { x = x + 1; } }\n";
    stuck.erase("checks");
    stuck["run"] = {{"warmup", 0}, {"repeats", 1}, {"time_limit_s", 1}};
    // Both requests are in the pipe before the first one finishes.
    serve.send(kw::protocol::request(1, kw::protocol::op::kRun,
                                     {{"document", stuck}, {"base_dir", KW_SAMPLES_DIR}, {"device", "sim"}}));
    serve.send(kw::protocol::request(2, kw::protocol::op::kRun,
                                     {{"document", sampleDocument("add_vectors_small.kwb")},
                                      {"base_dir", KW_SAMPLES_DIR},
                                      {"device", "sim"},
                                      {"return_buffers", "none"}}));

    const json first = serve.replyFor(1, std::chrono::seconds(90));
    ASSERT_TRUE(first["ok"].get<bool>()) << first.dump(2);
    EXPECT_FALSE(first["result"]["ok"].get<bool>());
    ASSERT_FALSE(first["result"]["fault"].is_null()) << first.dump(2);
    EXPECT_EQ(first["result"]["fault"]["kind"], "timeout");

    const json second = serve.replyFor(2, std::chrono::seconds(90));
    ASSERT_TRUE(second["ok"].get<bool>()) << second.dump(2);
    EXPECT_TRUE(second["result"]["ok"].get<bool>()) << second.dump(2);
    EXPECT_TRUE(second["result"]["checks"][0]["passed"].get<bool>());

    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}
