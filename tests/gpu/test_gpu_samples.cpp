// Every sample runs on the GPU and its checks pass, through `kwb-run serve` (one
// warm process for all) and through `kwb-run run`.
#include "data/DType.hpp"
#include "data/NpyFile.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "support/TempDir.hpp"

using namespace kwtest;
using nlohmann::json;

TEST(GpuSamples, EverySampleRunsAndItsChecksPassInOneServeProcess)
{
    KW_REQUIRE_GPU();
    const auto names = sampleNames();
    ASSERT_FALSE(names.empty()) << "no samples in " << KW_SAMPLES_DIR;
    ChildProcess serve({"serve"});
    int id = 1;
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        std::map<std::string, std::vector<char>> buffers;
        json reply = runJob(serve, id++, loadSample(name), "cuda:0", &buffers);
        ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
        const json& r = reply["result"];
        EXPECT_TRUE(r["fault"].is_null()) << r["fault"].dump();
        EXPECT_TRUE(r["compile"]["ok"].get<bool>()) << r["compile"]["log"];
        const json document = loadSample(name);
        ASSERT_EQ(r["checks"].size(), document.value("checks", json::array()).size())
            << "every check of the document is evaluated";
        for (const auto& c : r["checks"])
            EXPECT_TRUE(c["passed"].get<bool>() && c["checked"].get<std::size_t>() > 0) << c.dump(2);
        EXPECT_TRUE(r["ok"].get<bool>()) << r.dump(2);
        EXPECT_EQ(r["device"]["id"], "cuda:0");
        EXPECT_EQ(r["buffers"].size(), document.value("buffers", json::array()).size());
        for (const auto& b : r["buffers"]) {
            ASSERT_TRUE(buffers.count(b["name"])) << b.dump();
            const auto dtype = kw::parseDType(b["dtype"].get<std::string>());
            ASSERT_TRUE(dtype) << b.dump();
            EXPECT_EQ(buffers[b["name"]].size(), b["count"].get<std::size_t>() * kw::sizeOf(*dtype));
        }
        EXPECT_GT(r["timings"]["kernel_ms"].size(), 0u);
        std::printf("%-28s kernel median %.4f ms  %.1f GB/s  compile %.1f ms  h2d %.2f ms\n", name.c_str(),
                    r["timings"]["median_ms"].get<double>(), r["timings"]["gbps"].get<double>(),
                    r["timings"]["compile_ms"].get<double>(), r["timings"]["h2d_ms"].get<double>());
    }
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}

TEST(GpuSamples, EverySampleRunsThroughTheCliAndWritesItsOutputs)
{
    KW_REQUIRE_GPU();
    const auto names = sampleNames();
    ASSERT_FALSE(names.empty()) << "no samples in " << KW_SAMPLES_DIR;
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        const auto out = kw::test::freshDir("kw_gpu_samples", "out_" + name);
        std::filesystem::remove_all(out);
        auto r = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/" + name, "--device", "cuda:0", "--repeat", "3",
                         "--out", out.string()});
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_TRUE(std::filesystem::exists(out / "result.json"));
        auto result = json::parse(std::ifstream(out / "result.json"));
        EXPECT_TRUE(result["ok"].get<bool>());
        // A document of steps changes its buffers as it goes: it runs once, whatever --repeat says.
        const bool steps = loadSample(name).contains("steps");
        EXPECT_EQ(result["timings"]["kernel_ms"].size(), steps ? 1u : 3u);
        if (steps)
            EXPECT_EQ(result["steps"].size() > 0, true) << "each step's times";
        EXPECT_EQ(result["checks"].size(), loadSample(name).value("checks", json::array()).size());
        std::size_t written = 0;
        for (const auto& b : result["buffers"]) {
            if (b["direction"] == "in")
                continue;
            const auto npy = out / (b["name"].get<std::string>() + ".npy");
            ASSERT_TRUE(std::filesystem::exists(npy)) << b.dump();
            const kw::NdArray a = kw::NpyFile::read(npy);
            EXPECT_EQ(a.data.count(), b["count"].get<std::size_t>()) << b.dump();
            EXPECT_EQ(kw::toString(a.data.dtype()), b["dtype"].get<std::string>()) << b.dump();
            ++written;
        }
        // Every out/inout buffer of the document comes back as a file (hello_from_gpu has none).
        std::size_t outputs = 0;
        for (const auto& b : loadSample(name).value("buffers", json::array()))
            outputs += b.value("direction", std::string("inout")) != "in";
        EXPECT_EQ(written, outputs);
    }
}

TEST(GpuSamples, OutputsAreTheStateAfterExactlyOneLaunch)
{
    KW_REQUIRE_GPU();
    // x[i] += 1 on inout data: after warm-up and repeats the outputs still show one launch.
    json doc
        = kernelDocument("__global__ void inc(int* p, int n) { int i = threadIdx.x; if (i < n) p[i] += 1; }", "inc");
    doc["buffers"][0]["init"] = {{"kind", "arange"}};
    doc["run"] = {{"warmup", 3}, {"repeats", 7}};
    doc["launch"]["block"] = {64, 1, 1};
    doc["checks"] = {{{"buffer", "p"}, {"expect", "i + 1"}, {"abs_tol", 0}, {"rel_tol", 0}}};
    ChildProcess serve({"serve"});
    json reply = runJob(serve, 1, doc);
    ASSERT_TRUE(reply["ok"].get<bool>()) << reply.dump(2);
    EXPECT_TRUE(reply["result"]["ok"].get<bool>()) << reply["result"]["checks"].dump(2);
    EXPECT_EQ(reply["result"]["timings"]["kernel_ms"].size(), 7u);
}
