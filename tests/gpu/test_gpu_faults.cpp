// Each fault kind comes back as a structured fault, and the next job in the same
// serve session succeeds (the runner replaces itself after a sticky fault).
#include "gpu/GpuTestSupport.hpp"
#include "support/TempDir.hpp"

using namespace kwtest;
using nlohmann::json;

namespace {

struct FaultCase {
    const char* name;
    const char* source;
    const char* kind;
    double timeLimit;
};

const FaultCase kCases[] = {
    {"illegal_address", "__global__ void k(int* p, int n) { int* bad = (int*)0x10; bad[threadIdx.x] = n; }",
     "illegal_address", 10},
    {"misaligned_address", "__global__ void k(int* p, int n) { int* q = (int*)((char*)p + 1); q[threadIdx.x] = n; }",
     "misaligned_address", 10},
    {"trap", "__global__ void k(int* p, int n) { if (threadIdx.x == 3) __trap(); p[threadIdx.x] = n; }", "trap", 10},
    {"assert", "#include <cassert>\n__global__ void k(int* p, int n) { assert(threadIdx.x < 5); p[threadIdx.x] = n; }",
     "assert", 10},
    {"endless_loop", "__global__ void k(int* p, int n) { volatile int* v = p; while (v[0] == 0) { } p[1] = n; }",
     "timeout", 2},
};

class GpuFaults : public ::testing::TestWithParam<FaultCase> { };

} // namespace

TEST_P(GpuFaults, IsReportedAndTheNextJobSucceeds)
{
    KW_REQUIRE_GPU();
    const FaultCase& c = GetParam();
    ChildProcess serve({"serve"});
    // Warm the context first, so the restart really replaces a used process.
    ASSERT_TRUE(runJob(serve, 1, loadSample("add_vectors_small.kwb"))["result"]["ok"].get<bool>());

    json reply = runJob(serve, 2, kernelDocument(c.source, "k", {32, 1, 1}, c.timeLimit));
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    const json& r = reply["result"];
    EXPECT_FALSE(r["ok"].get<bool>());
    ASSERT_FALSE(r["fault"].is_null()) << r.dump(2);
    EXPECT_EQ(r["fault"]["kind"], c.kind) << r["fault"].dump();
    EXPECT_FALSE(r["fault"]["message"].get<std::string>().empty());

    // The same session goes on: a plain run, then printf (capture re-installed).
    json next = runJob(serve, 3, loadSample("add_vectors_small.kwb"));
    ASSERT_TRUE(next["ok"].get<bool>()) << next.dump(2);
    EXPECT_TRUE(next["result"]["ok"].get<bool>()) << next["result"].dump(2);
    json hello = runJob(serve, 4, loadSample("hello_from_gpu.kwb"));
    EXPECT_EQ(hello["result"]["printf"]["lines"].size(), 60u) << hello.dump(2);

    serve.send(kw::protocol::request(5, kw::protocol::op::kShutdown));
    EXPECT_TRUE(serve.replyFor(5)["ok"].get<bool>());
    EXPECT_EQ(serve.wait(), 0);
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuFaults, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(GpuFaultsCli, FaultExitsThreeAndSaysWhich)
{
    KW_REQUIRE_GPU();
    const auto path = kw::test::freshDir("kw_gpu_faults", "fault") / "fault.kwb";
    std::ofstream(path) << kernelDocument(kCases[0].source, "k").dump();
    auto r = runKwb({"run", path.string(), "--device", "cuda:0"});
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_NE(r.out.find("illegal_address"), std::string::npos) << r.out;

    const auto loop = kw::test::freshDir("kw_gpu_faults", "loop") / "loop.kwb";
    std::ofstream(loop) << kernelDocument(kCases[4].source, "k", {32, 1, 1}, 2).dump();
    auto t = runKwb({"run", loop.string(), "--device", "cuda:0"});
    EXPECT_EQ(t.exitCode, 3) << t.out << t.err;
    EXPECT_NE(t.out.find("timeout"), std::string::npos) << t.out;
}

TEST(GpuFaultsCli, FailedCheckExitsFour)
{
    KW_REQUIRE_GPU();
    json doc = loadSample("add_vectors_small.kwb");
    doc["checks"][0]["expect"] = "1000 + i";
    const auto path = kw::test::freshDir("kw_gpu_faults", "badcheck") / "badcheck.kwb";
    std::ofstream(path) << doc.dump();
    auto r = runKwb({"run", path.string(), "--device", "cuda:0"});
    EXPECT_EQ(r.exitCode, 4) << r.out << r.err;
}
