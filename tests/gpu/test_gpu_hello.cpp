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
    // 262,144 lines of about 36 bytes: 18 times the FIFO the driver grants for 64 KiB
    // (it rounds up to 512 KiB). A printf into a full FIFO is slow, so the workload
    // stays smaller and the time limit generous: at 4 times this size the kernel alone
    // took 7.5 to 8.3 s on an H200 (10 to 15 % of the lines got through), and a run
    // over the 10 s limit was cut off.
    json doc = kernelDocument("__global__ void chatty(int* p, int n) { for (int k = 0; k < 32; ++k) printf(\"line %d "
                              "of thread %d\\n\", k, threadIdx.x); }",
                              "chatty", {256, 1, 1}, 60);
    doc["launch"]["grid"] = {32, 1, 1};
    doc["run"]["printf_buffer_bytes"] = 64 * 1024;
    ChildProcess serve({"serve"});
    json reply = runJob(serve, 1, doc);
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    const json& r = reply["result"];
    ASSERT_TRUE(r.value("fault", json()).is_null()) << "the run faulted: " << r["fault"].dump();
    EXPECT_TRUE(r["printf"]["truncated"].get<bool>())
        << r["printf"]["lines"].size()
        << " tagged lines, untagged: " << r["printf"].value("untagged", json::array()).dump().substr(0, 300)
        << "\nwarnings: " << r["warnings"].dump() << "\ntimings: " << r["timings"].dump();
    EXPECT_LT(r["printf"]["lines"].size(), 32u * 256u * 32u);
    EXPECT_FALSE(r["warnings"].empty());
}
