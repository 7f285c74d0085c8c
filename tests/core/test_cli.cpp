// kwb-run exit codes and output, through the real executable (KW_BIN_DIR).
#include "cuda/DriverApi.hpp"
#include "gpu/ChildProcess.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using kwtest::runKwb;

namespace {

fs::path scratch(const std::string& name, const std::string& content)
{
    fs::path dir = fs::temp_directory_path() / "kw_test_cli";
    fs::create_directories(dir);
    fs::path p = dir / name;
    std::ofstream(p) << content;
    return p;
}

const char* kGoodKernel = "__global__ void scale(float* x, float s, int n)\n"
                          "{\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < n) x[i] *= s;\n"
                          "}\n";

} // namespace

TEST(Cli, CompileGoodSourceExitsZeroAndListsKernels)
{
    auto r = runKwb({"compile", scratch("good.cu", kGoodKernel).string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_TRUE(j["diagnostics"].empty());
    ASSERT_EQ(j["kernels"].size(), 1u);
    EXPECT_EQ(j["kernels"][0]["name"], "scale");
    ASSERT_EQ(j["kernels"][0]["params"].size(), 3u);
    EXPECT_EQ(j["kernels"][0]["params"][1]["name"], "s");
    EXPECT_TRUE(j["compile_ms"].is_number());
}

TEST(Cli, CompileErrorExitsOneWithLocatedDiagnostics)
{
    auto bad = scratch("bad.cu", "__global__ void k(int* p)\n{\n    p[0] = undefined_name;\n}\n");
    auto r = runKwb({"compile", bad.string(), "--json"});
    ASSERT_EQ(r.exitCode, 1) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["ok"].get<bool>());
    ASSERT_FALSE(j["diagnostics"].empty());
    const auto& d = j["diagnostics"][0];
    EXPECT_EQ(d["line"], 3);
    EXPECT_EQ(d["severity"], "error");
    EXPECT_GT(d["column"].get<int>(), 0);
    EXPECT_NE(d["message"].get<std::string>().find("undefined_name"), std::string::npos);

    auto text = runKwb({"compile", bad.string()});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.out.find("bad.cu:3:"), std::string::npos) << text.out;
}

TEST(Cli, CompileDefinesReachTheSource)
{
    auto src = scratch("needs_define.cu",
                       "#ifndef WIDTH\n#error WIDTH missing\n#endif\n__global__ void k(int* p) { p[0] = WIDTH; }\n");
    auto missing = runKwb({"compile", src.string()});
    EXPECT_EQ(missing.exitCode, 1) << missing.err;
    auto spaced = runKwb({"compile", src.string(), "-D", "WIDTH=4"});
    EXPECT_EQ(spaced.exitCode, 0) << spaced.err;
    auto joined = runKwb({"compile", src.string(), "-DWIDTH=4", "--arch", "compute_80"});
    EXPECT_EQ(joined.exitCode, 0) << joined.err;
}

TEST(Cli, CompileSampleDocument)
{
    auto r = runKwb({"compile", std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["lowered_names"].contains("add_vectors"));
}

TEST(Cli, BadUsageExitsTwo)
{
    EXPECT_EQ(runKwb({}).exitCode, 2);
    EXPECT_EQ(runKwb({"frobnicate"}).exitCode, 2);
    EXPECT_EQ(runKwb({"compile"}).exitCode, 2);
    EXPECT_EQ(runKwb({"run", "x.kwb", "--repeat", "many"}).exitCode, 2);
    auto missing = runKwb({"compile", "/nonexistent/kernel.cu"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("/nonexistent/kernel.cu"), std::string::npos) << missing.err;
}

TEST(Cli, BadDocumentExitsTwoWithOneMessage)
{
    auto doc = scratch("bad.kwb", R"({"format": "kernel-workbench", "version": 1, "source": "__global__ void k() {}",
        "kernel": "k", "args": [], "launch": {"grid": [1], "block": [1]},
        "buffers": [{"name": "a", "dtype": "f33", "count": "4"}]})");
    for (const char* cmd : {"run", "compile"}) {
        auto r = runKwb({cmd, doc.string()});
        EXPECT_EQ(r.exitCode, 2) << cmd << ": " << r.out << r.err;
        EXPECT_NE(r.err.find("f33"), std::string::npos) << r.err;
    }
    auto notJson = scratch("notjson.kwb", "{ this is not json");
    EXPECT_EQ(runKwb({"run", notJson.string()}).exitCode, 2);
    EXPECT_EQ(runKwb({"run", (fs::temp_directory_path() / "kw_test_cli" / "absent.kwb").string()}).exitCode, 2);
}

TEST(Cli, BadDeviceNameExitsTwo)
{
    auto r = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", "--device", "gpu7"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("gpu7"), std::string::npos) << r.err;
}

TEST(Cli, DevicesWorksWithAndWithoutDriver)
{
    auto r = runKwb({"devices"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    auto j = runKwb({"devices", "--json"});
    ASSERT_EQ(j.exitCode, 0) << j.err;
    auto parsed = nlohmann::json::parse(j.out);
    ASSERT_TRUE(parsed["devices"].is_array());
    if (!kw::cuda::DriverApi::available()) {
        EXPECT_NE(r.out.find("No GPU"), std::string::npos) << r.out;
        EXPECT_TRUE(parsed["driver"].is_string());
        for (const auto& d : parsed["devices"])
            EXPECT_EQ(d["id"], "sim");
    } else {
        EXPECT_TRUE(parsed["driver"].is_null());
    }
}

TEST(Cli, RunOnAMissingGpuSaysSoInOneLine)
{
    if (kw::cuda::DriverApi::available())
        GTEST_SKIP() << "a CUDA driver is present; this checks the no-driver message";
    auto r = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", "--device", "cuda:0"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no GPU"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Cli, RunOnTheSimulatorExitCodesAndOutputs)
{
    const std::string sample = std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb";
    const fs::path out = fs::temp_directory_path() / "kw_test_cli" / "out";
    fs::remove_all(out);
    auto ok = runKwb({"run", sample, "--device", "sim", "--repeat", "2", "--out", out.string()});
    ASSERT_EQ(ok.exitCode, 0) << ok.out << ok.err;
    EXPECT_NE(ok.out.find("passed"), std::string::npos) << ok.out;
    EXPECT_TRUE(fs::exists(out / "c.npy"));
    EXPECT_FALSE(fs::exists(out / "a.npy")); // inputs are not outputs
    auto result = nlohmann::json::parse(std::ifstream(out / "result.json"));
    EXPECT_TRUE(result["ok"].get<bool>());
    EXPECT_EQ(result["timings"]["kernel_ms"].size(), 2u);

    std::ifstream in(sample);
    auto doc = nlohmann::json::parse(in);
    doc["checks"][0]["expect"] = "100 + i";
    auto failing = scratch("failing_check.kwb", doc.dump());
    EXPECT_EQ(runKwb({"run", failing.string(), "--device", "sim"}).exitCode, 4);

    doc.erase("checks");
    doc["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                    "{ c[threadIdx.x + 1000000] = a[0] + b[0]; }\n";
    auto faulting = scratch("faulting.kwb", doc.dump());
    auto fault = runKwb({"run", faulting.string(), "--device", "sim"});
    EXPECT_EQ(fault.exitCode, 3) << fault.out << fault.err;
    EXPECT_NE(fault.out.find("FAULT"), std::string::npos) << fault.out;

    doc["source"] = "__global__ void add_vectors(float *a, float *b, float *c, int n) { c[0] = nope; }\n";
    auto broken = scratch("broken.kwb", doc.dump());
    auto compileError = runKwb({"run", broken.string(), "--device", "sim"});
    EXPECT_EQ(compileError.exitCode, 1) << compileError.out << compileError.err;
    EXPECT_NE(compileError.out.find("nope"), std::string::npos) << compileError.out;
}

TEST(Cli, VersionNamesTheNvrtcAndDriverFoundOrSaysNotFound)
{
    auto r = runKwb({"--version"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind("kwb-run " KW_TEST_VERSION "\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\nNVRTC:        13."), std::string::npos) << r.out;
    if (kw::cuda::DriverApi::available())
        EXPECT_NE(r.out.find("\ndriver:       CUDA "), std::string::npos) << r.out;
    else
        EXPECT_NE(r.out.find("\ndriver:       not found ("), std::string::npos) << r.out;
}
