// What `kwb-run run --out DIR` writes and what `--json` prints, on the simulator: the
// .npy files hold the outputs' values with their dtype and shape, inputs are not
// written, result.json is the run result, and --json prints the same object.
#include "data/NpyFile.hpp"
#include "gpu/ChildProcess.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using kwtest::runKwb;
using nlohmann::json;

namespace {

fs::path writeDocument(const fs::path& dir, const std::string& name, const json& doc)
{
    const fs::path p = dir / name;
    std::ofstream(p) << doc.dump(2);
    return p;
}

json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return json::parse(in);
}

// p[i] = 2 * p[i] + 1 on an inout buffer of arange values, shape [rows, 4], with an
// out buffer q[i] = i * i and an input that must not be written.
json inoutDocument()
{
    return json::parse(R"JSON({
      "format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(int* p, float* q, const float* unused, int n)\n{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { p[i] = 2 * p[i] + 1; q[i] = float(i) * float(i); } }\n",
      "kernel": "k",
      "variables": [["rows", "3"], ["n", "rows * 4"]],
      "buffers": [
        {"name": "p", "dtype": "i32", "count": "n", "shape": ["rows", 4], "init": {"kind": "arange"}, "direction": "inout"},
        {"name": "q", "dtype": "f32", "count": "n", "init": {"kind": "zeros"}, "direction": "out"},
        {"name": "unused", "dtype": "f32", "count": "n", "init": {"kind": "fill", "value": "7"}, "direction": "in"}
      ],
      "args": [{"name": "p", "buffer": "p"}, {"name": "q", "buffer": "q"}, {"name": "unused", "buffer": "unused"},
               {"name": "n", "type": "i32", "value": "n"}],
      "launch": {"grid": [1, 1, 1], "block": [32, 1, 1]},
      "run": {"warmup": 1, "repeats": 3},
      "checks": [{"buffer": "p", "expect": "2 * i + 1", "abs_tol": 0, "rel_tol": 0}]
    })JSON");
}

} // namespace

TEST(CliOutputs, OutWritesEveryOutputsValuesAndTheResult)
{
    const fs::path dir = kw::test::freshDir("kw_test_cli_outputs", "out");
    const fs::path doc = writeDocument(dir, "inout.kwb", inoutDocument());
    const fs::path out = dir / "result";
    const auto r = runKwb({"run", doc.string(), "--device", "sim", "--out", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;

    // The state after exactly one launch, although warm-up and repeats ran too.
    const kw::NdArray p = kw::NpyFile::read(out / "p.npy");
    EXPECT_EQ(p.data.dtype(), kw::DType::I32);
    EXPECT_EQ(p.shape, (std::vector<std::size_t>{3, 4}));
    ASSERT_EQ(p.data.count(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(p.data.at(i), double(2 * i + 1)) << "p[" << i << "]";
    const kw::NdArray q = kw::NpyFile::read(out / "q.npy");
    EXPECT_EQ(q.data.dtype(), kw::DType::F32);
    EXPECT_EQ(q.shape, (std::vector<std::size_t>{12}));
    ASSERT_EQ(q.data.count(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(q.data.at(i), double(i * i)) << "q[" << i << "]";
    EXPECT_FALSE(fs::exists(out / "unused.npy")) << "inputs are not outputs";

    const json result = readJson(out / "result.json");
    EXPECT_TRUE(result["ok"].get<bool>());
    EXPECT_EQ(result["device"]["id"], "sim");
    EXPECT_TRUE(result["fault"].is_null());
    EXPECT_EQ(result["launch"]["grid"], json::array({1, 1, 1}));
    EXPECT_EQ(result["launch"]["block"], json::array({32, 1, 1}));
    ASSERT_EQ(result["checks"].size(), 1u);
    EXPECT_EQ(result["checks"][0]["buffer"], "p");
    EXPECT_TRUE(result["checks"][0]["passed"].get<bool>());
    EXPECT_EQ(result["checks"][0]["checked"], 12);
    EXPECT_EQ(result["checks"][0]["mismatches"], 0);
    EXPECT_EQ(result["timings"]["kernel_ms"].size(), 3u);
    EXPECT_TRUE(result["compile"]["ok"].get<bool>());
    ASSERT_EQ(result["buffers"].size(), 3u);
    EXPECT_EQ(result["buffers"][0]["name"], "p");
    EXPECT_EQ(result["buffers"][0]["dtype"], "i32");
    EXPECT_EQ(result["buffers"][0]["count"], 12);
    EXPECT_EQ(result["buffers"][0]["direction"], "inout");
    EXPECT_EQ(result["buffers"][2]["direction"], "in");
}

TEST(CliOutputs, JsonPrintsTheResultThatOutWrites)
{
    const fs::path dir = kw::test::freshDir("kw_test_cli_outputs", "json");
    const fs::path doc = writeDocument(dir, "inout.kwb", inoutDocument());
    const fs::path out = dir / "result";
    const auto r = runKwb({"run", doc.string(), "--device", "sim", "--json", "--out", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const json printed = json::parse(r.out); // nothing but the one object on stdout
    EXPECT_EQ(printed, readJson(out / "result.json"));
    EXPECT_TRUE(printed["ok"].get<bool>());
    EXPECT_EQ(printed["checks"][0]["checked"], 12);

    // printf lines come back tagged in the JSON form.
    const auto hello
        = runKwb({"run", std::string(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb", "--device", "sim", "--json"});
    ASSERT_EQ(hello.exitCode, 0) << hello.out << hello.err;
    const json h = json::parse(hello.out);
    ASSERT_EQ(h["printf"]["lines"].size(), 60u);
    EXPECT_EQ(h["printf"]["lines"][0]["block"], json::array({0, 0, 0}));
    EXPECT_FALSE(h["printf"]["truncated"].get<bool>());
}

TEST(CliOutputs, AFaultWritesTheResultButNoBuffersAndAFailedCheckSaysWhere)
{
    const fs::path dir = kw::test::freshDir("kw_test_cli_outputs", "fault");
    json doc = inoutDocument();
    doc["source"]
        = "__global__ void k(int* p, float* q, const float* unused, int n) { p[threadIdx.x + 1000000] = 1; }\n";
    doc.erase("checks");
    const fs::path out = dir / "result";
    const auto r = runKwb(
        {"run", writeDocument(dir, "fault.kwb", doc).string(), "--device", "sim", "--json", "--out", out.string()});
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    const json result = readJson(out / "result.json");
    EXPECT_FALSE(result["ok"].get<bool>());
    ASSERT_FALSE(result["fault"].is_null());
    EXPECT_EQ(result["fault"]["kind"], "out_of_bounds");
    EXPECT_EQ(json::parse(r.out), result);
    EXPECT_FALSE(fs::exists(out / "p.npy")) << "a faulted run's buffers are not its outputs";

    json wrong = inoutDocument();
    wrong["checks"][0]["expect"] = "2 * i + (i == 5 ? 2 : 1)";
    const auto failed = runKwb({"run", writeDocument(dir, "wrong.kwb", wrong).string(), "--device", "sim", "--json"});
    EXPECT_EQ(failed.exitCode, 4) << failed.out << failed.err;
    const json f = json::parse(failed.out);
    ASSERT_EQ(f["checks"].size(), 1u);
    EXPECT_FALSE(f["checks"][0]["passed"].get<bool>());
    EXPECT_EQ(f["checks"][0]["mismatches"], 1);
    ASSERT_EQ(f["checks"][0]["first_mismatches"].size(), 1u);
    EXPECT_EQ(f["checks"][0]["first_mismatches"][0]["index"], 5);
    EXPECT_EQ(f["checks"][0]["first_mismatches"][0]["got"], 11);
    EXPECT_EQ(f["checks"][0]["first_mismatches"][0]["expected"], 12);
}

namespace {

// The two-pass reduction sample over 1024 elements: 4 blocks of 256, partial sums 1920.
fs::path smallReduction(const fs::path& dir)
{
    json doc = readJson(fs::path(KW_SAMPLES_DIR) / "reduction_two_pass.kwb");
    doc["variables"][0] = json::array({"n", "1 << 10"});
    return writeDocument(dir, "reduction.kwb", doc);
}

} // namespace

TEST(CliOutputs, OutAfterWritesEveryBufferAsTheStepsItNamesLeftThem)
{
    const fs::path dir = kw::test::freshDir("kw_test_cli_outputs", "out_after");
    const fs::path out = dir / "result";
    const auto r = runKwb({"run", smallReduction(dir).string(), "--device", "sim", "--out", out.string(), "--out-after",
                           "1", "--out-after", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // After step 1 the partial sums are there and the total is still the upload's zero.
    const kw::NdArray partial = kw::NpyFile::read(out / "after-step-1" / "partial.npy");
    ASSERT_EQ(partial.data.count(), 4u);
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_EQ(partial.data.at(i), 1920.0) << i;
    EXPECT_EQ(kw::NpyFile::read(out / "after-step-1" / "total.npy").data.at(0), 0.0);
    const kw::NdArray x = kw::NpyFile::read(out / "after-step-1" / "x.npy");
    ASSERT_EQ(x.data.count(), 1024u);
    EXPECT_EQ(x.data.at(17), 1.0) << "inputs too: every buffer";
    EXPECT_EQ(kw::NpyFile::read(out / "after-step-2" / "total.npy").data.at(0), 7680.0);
    EXPECT_EQ(kw::NpyFile::read(out / "total.npy").data.at(0), 7680.0);

    const json result = readJson(out / "result.json");
    ASSERT_EQ(result["steps"].size(), 2u);
    ASSERT_EQ(result["steps"][0]["buffers"].size(), 3u);
    EXPECT_EQ(result["steps"][0]["buffers"][1]["name"], "partial");
    EXPECT_EQ(result["steps"][0]["buffers"][1]["count"], 4);
}

TEST(CliOutputs, OutAfterAStepThatDoesNotExistIsAnErrorNamingIt)
{
    const fs::path dir = kw::test::freshDir("kw_test_cli_outputs", "out_after_missing");
    const fs::path out = dir / "result";
    const auto r
        = runKwb({"run", smallReduction(dir).string(), "--device", "sim", "--out", out.string(), "--out-after", "3.1"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("buffers after step \"3.1\" were asked for, but the document has no such step (its "
                         "steps: 1, 2)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out / "result.json"));

    const auto withoutOut = runKwb({"run", smallReduction(dir).string(), "--device", "sim", "--out-after", "1"});
    EXPECT_NE(withoutOut.exitCode, 0);
    EXPECT_NE(withoutOut.err.find("--out"), std::string::npos) << withoutOut.err;
}
