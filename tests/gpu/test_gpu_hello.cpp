// hello_from_gpu: 60 tagged printf lines covering every thread of a 3x4x5 block.
#include "gpu/GpuTestSupport.hpp"

#include <set>
#include <tuple>

using namespace kwtest;
using nlohmann::json;

namespace {

void expectAllSixtyThreads(const json& printf)
{
    const json& lines = printf["lines"];
    ASSERT_EQ(lines.size(), 60u) << printf.dump(2);
    std::set<std::tuple<int, int, int>> threads;
    for (const auto& l : lines) {
        EXPECT_EQ(l["text"], "Hello World from the GPU!");
        EXPECT_EQ(l["block"], json({0, 0, 0}));
        const int x = l["thread"][0], y = l["thread"][1], z = l["thread"][2];
        EXPECT_TRUE(x < 3 && y < 4 && z < 5) << l.dump();
        threads.emplace(x, y, z);
    }
    EXPECT_EQ(threads.size(), 60u);
    EXPECT_TRUE(printf["untagged"].empty()) << printf["untagged"].dump();
    EXPECT_FALSE(printf["truncated"].get<bool>());
}

} // namespace

TEST(GpuHello, SixtyTaggedLinesThroughServe)
{
    KW_REQUIRE_GPU();
    ChildProcess serve({"serve"});
    // Twice: the second run must not see the first run's (or its repeats') output.
    for (int id = 1; id <= 2; ++id) {
        json reply = runJob(serve, id, loadSample("hello_from_gpu.kwb"));
        ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
        expectAllSixtyThreads(reply["result"]["printf"]);
    }
    // With timed repeats the output is still that of the one launch.
    json doc = loadSample("hello_from_gpu.kwb");
    doc["run"]["repeats"] = 5;
    doc["run"]["warmup"] = 2;
    json reply = runJob(serve, 3, doc);
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    expectAllSixtyThreads(reply["result"]["printf"]);
}

TEST(GpuHello, SixtyLinesThroughTheCli)
{
    KW_REQUIRE_GPU();
    auto r = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb", "--device", "cuda:0", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    expectAllSixtyThreads(json::parse(r.out)["printf"]);

    auto text = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb", "--device", "cuda:0"});
    ASSERT_EQ(text.exitCode, 0);
    std::size_t count = 0, at = 0;
    while ((at = text.out.find("Hello World from the GPU!", at)) != std::string::npos) {
        ++count;
        ++at;
    }
    EXPECT_EQ(count, 60u) << text.out;
}

TEST(GpuHello, ADifferentPrintfBufferSizeGetsAFreshRunner)
{
    KW_REQUIRE_GPU();
    ChildProcess serve({"serve"});
    json doc = loadSample("hello_from_gpu.kwb");
    ASSERT_TRUE(runJob(serve, 1, doc)["result"]["ok"].get<bool>());
    doc["run"]["printf_buffer_bytes"] = 8 << 20;
    json reply = runJob(serve, 2, doc);
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    expectAllSixtyThreads(reply["result"]["printf"]);
}

TEST(GpuHello, OverflowingThePrintfBufferIsReportedAsTruncated)
{
    KW_REQUIRE_GPU();
    json doc = kernelDocument(
        "__global__ void chatty(int* p, int n) { for (int k = 0; k < 64; ++k) printf(\"line %d of thread %d\\n\", k, threadIdx.x); }",
        "chatty", {256, 1, 1});
    doc["launch"]["grid"] = {64, 1, 1};
    doc["run"]["printf_buffer_bytes"] = 64 * 1024;
    ChildProcess serve({"serve"});
    json reply = runJob(serve, 1, doc);
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    const json& r = reply["result"];
    EXPECT_TRUE(r["printf"]["truncated"].get<bool>());
    EXPECT_LT(r["printf"]["lines"].size(), 64u * 256u * 64u);
    EXPECT_FALSE(r["warnings"].empty());
}
