// Launches over a device or kernel limit are refused before launching, with a
// message naming the limit and the value.
#include "gpu/GpuTestSupport.hpp"
#include "support/TempDir.hpp"

using namespace kwtest;
using nlohmann::json;

namespace {

json refused(ChildProcess& serve, int id, const json& doc)
{
    json reply = runJob(serve, id, doc);
    EXPECT_FALSE(reply["ok"].get<bool>()) << reply.dump(2);
    EXPECT_EQ(reply["error"]["category"], "limit") << reply.dump(2);
    return reply;
}

const char* kStore = "__global__ void k(int* p, int n) { p[threadIdx.x % n] = n; }";

} // namespace

TEST(GpuLimits, OverLimitLaunchesAreRefusedAndTheRunnerStaysUsable)
{
    KW_REQUIRE_GPU();
    ChildProcess serve({"serve"});

    // 3 x 4 x 100 = 1200 threads per block.
    json tooMany = refused(serve, 1, kernelDocument(kStore, "k", {3, 4, 100}));
    std::string msg = tooMany["error"]["message"];
    EXPECT_NE(msg.find("1200 threads"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1024"), std::string::npos) << msg;

    json tallZ = refused(serve, 2, kernelDocument(kStore, "k", {1, 1, 65}));
    msg = tallZ["error"]["message"];
    EXPECT_NE(msg.find("block.z = 65"), std::string::npos) << msg;

    json bigGrid = kernelDocument(kStore, "k");
    bigGrid["launch"]["grid"] = {1, 70000, 1};
    msg = refused(serve, 3, bigGrid)["error"]["message"];
    EXPECT_NE(msg.find("grid.y = 70000"), std::string::npos) << msg;

    json shared = kernelDocument("__global__ void k(int* p, int n) { extern __shared__ int s[]; s[threadIdx.x] = n; "
                                 "__syncthreads(); p[threadIdx.x % n] = s[0]; }",
                                 "k");
    shared["launch"]["shared_bytes"] = std::to_string(4 << 20);
    msg = refused(serve, 4, shared)["error"]["message"];
    EXPECT_NE(msg.find("shared memory"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(4 << 20)), std::string::npos) << msg;

    // The kernel's own limit: __launch_bounds__(128) allows no bigger block.
    json bounded = kernelDocument("__global__ void __launch_bounds__(128) k(int* p, int n) { p[threadIdx.x % n] = n; }",
                                  "k", {256, 1, 1});
    msg = refused(serve, 5, bounded)["error"]["message"];
    EXPECT_NE(msg.find("this kernel allows at most 128"), std::string::npos) << msg;

    // More than 48 KiB of dynamic shared memory works through the opt-in.
    shared["launch"]["shared_bytes"] = std::to_string(100 * 1024);
    json ok = runJob(serve, 6, shared);
    ASSERT_TRUE(ok["ok"].get<bool>()) << ok.dump(2);
    EXPECT_TRUE(ok["result"]["ok"].get<bool>()) << ok.dump(2);
}

TEST(GpuLimits, CliRefusesWithExitTwoAndTheLimit)
{
    KW_REQUIRE_GPU();
    json doc = loadSample("hello_from_gpu.kwb");
    doc["variables"][2][1] = "100"; // bz = 100: 1200 threads
    const auto path = kw::test::freshDir("kw_gpu_limits", "limit") / "limit.kwb";
    std::ofstream(path) << doc.dump();
    auto r = runKwb({"run", path.string(), "--device", "cuda:0"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("1200 threads"), std::string::npos) << r.err;
}
