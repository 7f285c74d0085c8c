// `kwb-run run` as a core class (serve/RunCommand) on the simulator, here and on a
// runner it starts: what it prints, what --out gets, and the exit code.
#include "data/NpyFile.hpp"
#include "run/ExitCode.hpp"
#include "serve/RunCommand.hpp"
#include "support/CommandOutput.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace fs = std::filesystem;
using kw::ExitCode;
using kw::RunCommand;
using kw::RunCommandOptions;

namespace {

using kw::test::Outcome;

Outcome run(RunCommandOptions o) { return kw::test::executeCommand<RunCommand>(std::move(o)); }

RunCommandOptions sample(const std::string& name)
{
    RunCommandOptions o;
    o.file = std::string(KW_SAMPLES_DIR) + "/" + name;
    o.device = "sim";
    return o;
}

fs::path document(const std::string& name, const std::string& source, const std::string& checks = "[]")
{
    const fs::path p = kw::test::freshDir("kw_test_run_command", name) / (name + ".kwb");
    std::ofstream(p) << R"({"format": "kernel-workbench", "version": 1, "source": )" << nlohmann::json(source).dump()
                     << R"(, "kernel": "k",
      "buffers": [{"name": "p", "dtype": "i32", "count": "8", "init": {"kind": "zeros"}, "direction": "out"}],
      "args": [{"name": "p", "buffer": "p"}], "launch": {"grid": [1, 1, 1], "block": [8, 1, 1]},
      "run": {"warmup": 0, "repeats": 1}, "checks": )"
                     << checks << "}";
    return p;
}

std::string runner() { return std::string(KW_BIN_DIR) + "/kwb-run serve"; }

} // namespace

TEST(RunCommand, ASummaryOfARunThatPassed)
{
    const Outcome r = run(sample("add_vectors_small.kwb"));
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_EQ(r.out.rfind("device   CPU simulator (", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\nlaunch   grid 1x1x1 block 256x1x1 shared 0 B\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ncheck    c = 5 + 2*i: passed"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
}

TEST(RunCommand, RepeatOverridesTheDocumentAndJsonIsTheResult)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    o.repeat = 2;
    o.json = true;
    const Outcome r = run(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["timings"]["kernel_ms"].size(), 2u);
    EXPECT_EQ(j["device"]["id"], "sim");
    EXPECT_FALSE(j.contains("runner"));
}

TEST(RunCommand, OutWritesTheOutputsAndTheResult)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    const fs::path out = kw::test::freshDir("kw_test_run_command", "out") / "result";
    o.outDir = out.string();
    const Outcome r = run(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_TRUE(fs::exists(out / "c.npy"));
    EXPECT_FALSE(fs::exists(out / "a.npy"));
    EXPECT_TRUE(fs::exists(out / "result.json"));
}

TEST(RunCommand, AnOutThatCannotBeWrittenIsBadInputAfterTheSummary)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    const fs::path blocked = kw::test::freshDir("kw_test_run_command", "blocked") / "file";
    std::ofstream(blocked) << "not a folder";
    o.outDir = blocked.string();
    const Outcome r = run(o);
    EXPECT_EQ(r.code, ExitCode::BadInput);
    EXPECT_EQ(r.err.rfind("kwb-run: cannot write --out: ", 0), 0u) << r.err;
    EXPECT_NE(r.out.find("passed"), std::string::npos) << "the run itself is still reported";
}

TEST(RunCommand, AFaultAFailedCheckAndACompileErrorEachHaveTheirCode)
{
    RunCommandOptions o;
    o.device = "sim";
    o.file = document("fault", "__global__ void k(int* p) { p[threadIdx.x + 1000000] = 1; }\n").string();
    const Outcome fault = run(o);
    EXPECT_EQ(fault.code, ExitCode::Fault) << fault.err;
    EXPECT_NE(fault.out.find("\nFAULT    out_of_bounds: "), std::string::npos) << fault.out;

    o.file = document("check", "__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }\n",
                      R"([{"buffer": "p", "expect": "i + 1"}])")
                 .string();
    const Outcome check = run(o);
    EXPECT_EQ(check.code, ExitCode::CheckFailed) << check.err;
    EXPECT_NE(check.out.find("FAILED (8 of 8 elements differ"), std::string::npos) << check.out;

    o.file = document("cerr", "__global__ void k(int* p) { nope; }\n").string();
    const Outcome cerr = run(o);
    EXPECT_EQ(cerr.code, ExitCode::CompileErrors) << cerr.err;
    EXPECT_EQ(cerr.out.rfind("kernel.cu:1:", 0), 0u) << "the diagnostics alone: " << cerr.out;
    EXPECT_NE(cerr.out.find("\"nope\" is undefined"), std::string::npos) << cerr.out;
    EXPECT_EQ(cerr.out.find("device "), std::string::npos) << cerr.out;
}

TEST(RunCommand, ABadDocumentOrDeviceIsReportedNotThrown)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    o.device = "gpu7";
    const Outcome device = run(o);
    EXPECT_EQ(device.code, ExitCode::BadInput);
    EXPECT_EQ(device.err, "kwb-run: usage error: device \"gpu7\" is not a device name (use N, cuda:N or sim)\n");

    o = sample("absent.kwb");
    const Outcome absent = run(o);
    EXPECT_EQ(absent.code, ExitCode::BadInput);
    EXPECT_NE(absent.err.find("absent.kwb"), std::string::npos) << absent.err;
    EXPECT_EQ(absent.out, "");
}

TEST(RunCommand, OnARunnerTheSummarySaysWhatTheConnectionCarried)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    o.runner = runner();
    const Outcome r = run(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_NE(r.out.find("\ncheck    c = 5 + 2*i: passed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nrunner   " + runner() + ": sent "), std::string::npos) << r.out;

    o.json = true;
    const nlohmann::json j = nlohmann::json::parse(run(o).out);
    EXPECT_EQ(j["runner"]["command"], runner());
    EXPECT_GT(j["runner"]["bytes_sent"].get<int>(), 0);
    EXPECT_GT(j["runner"]["bytes_received"].get<int>(), 0);
}

// A document whose source is a file of its own: each check's findings name that file and
// the planted line, not the path NVRTC compiled it under (its working folder joined to the
// name), here and on a runner (which compiles in a job folder of its own).
namespace {

const char* const kPlanted = R"(extern "C" __global__ void race(int* p) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x; // RACE-WRITE
    p[threadIdx.x] = s[(threadIdx.x + 1) % 64]; // RACE-READ
}
extern "C" __global__ void overrun(int* p) {
    p[threadIdx.x + 64] = 1; // MEMCHECK
}
extern "C" __global__ void uninitialised(int* p) {
    __shared__ int s[64];
    p[threadIdx.x] = s[threadIdx.x]; // INITCHECK
}
extern "C" __global__ void divergent(int* p) {
    if (threadIdx.x < 16)
        __syncthreads(); // SYNCCHECK
    p[threadIdx.x] = 1;
}
)";

int plantedLine(const std::string& mark)
{
    const std::string text(kPlanted);
    const std::size_t at = text.find("// " + mark);
    return at == std::string::npos ? 0 : int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
}

fs::path documentOfItsOwnFile(const std::string& kernel)
{
    const fs::path dir = kw::test::freshDir("kw_test_run_command", "own_file_" + kernel);
    std::ofstream(dir / "planted.cu") << kPlanted;
    std::ofstream(dir / (kernel + ".kwb")) << R"({"format": "kernel-workbench", "version": 1,
      "source_file": "planted.cu", "kernel": ")"
                                           << kernel << R"(",
      "buffers": [{"name": "p", "dtype": "i32", "count": "64", "init": {"kind": "zeros"}, "direction": "out"}],
      "args": [{"name": "p", "buffer": "p"}], "launch": {"grid": [1, 1, 1], "block": [64, 1, 1]},
      "run": {"warmup": 0, "repeats": 1}})";
    return dir / (kernel + ".kwb");
}

} // namespace

TEST(RunCommand, AFindingNamesTheDocumentsSourceFileAndLineUnderEveryCheck)
{
    struct Case {
        const char* kernel;
        const char* tool;
        const char* mark;
        const char* otherMark; // racecheck: the earlier access
    };
    const Case cases[] = {{"race", "racecheck", "RACE-READ", "RACE-WRITE"},
                          {"overrun", "memcheck", "MEMCHECK", nullptr},
                          {"uninitialised", "initcheck", "INITCHECK", nullptr},
                          {"divergent", "synccheck", "SYNCCHECK", nullptr}};
    for (const bool onRunner : {false, true})
        for (const Case& c : cases) {
            SCOPED_TRACE(std::string(c.tool) + (onRunner ? " on a runner" : " here"));
            RunCommandOptions o;
            o.file = documentOfItsOwnFile(c.kernel).string();
            o.device = "sim";
            o.trust = true;
            o.check = c.tool;
            o.json = true;
            if (onRunner)
                o.runner = runner();
            const Outcome r = run(o);
            ASSERT_FALSE(r.out.empty()) << r.err;
            const nlohmann::json j = nlohmann::json::parse(r.out);
            ASSERT_TRUE(j.contains("findings")) << r.out;
            const nlohmann::json* found = nullptr;
            for (const auto& f : j["findings"])
                if (f["line"] == plantedLine(c.mark))
                    found = &f;
            ASSERT_TRUE(found) << "no finding at line " << plantedLine(c.mark) << ": " << j["findings"].dump(1);
            const nlohmann::json& f = *found;
            EXPECT_EQ(f["file"], "planted.cu");
            const std::string message = f["message"];
            EXPECT_NE(message.find("planted.cu:" + std::to_string(plantedLine(c.mark))), std::string::npos) << message;
            EXPECT_EQ(message.find("/planted.cu"), std::string::npos) << "a folder's path in: " << message;
            if (c.otherMark) {
                EXPECT_EQ(f["other_file"], "planted.cu");
                EXPECT_EQ(f["other_line"], plantedLine(c.otherMark));
            }
            // The summary printed without --json says the same.
            o.json = false;
            const Outcome text = run(o);
            EXPECT_NE(text.out.find("planted.cu:" + std::to_string(plantedLine(c.mark))), std::string::npos)
                << text.out;
            EXPECT_EQ(text.out.find("/planted.cu"), std::string::npos) << text.out;
        }
}

TEST(RunCommand, RepeatIsNotAvailableOnARunner)
{
    RunCommandOptions o = sample("add_vectors_small.kwb");
    o.runner = runner();
    o.repeat = 3;
    const Outcome r = run(o);
    EXPECT_EQ(r.code, ExitCode::BadInput);
    EXPECT_EQ(r.err,
              "kwb-run: usage error: --repeat is not available with --runner; set run.repeats in the "
              "document\n");
}

TEST(RunCommand, OnARunnerOutAfterBringsEveryBufferAfterTheStep)
{
    const fs::path dir = kw::test::freshDir("kw_test_run_command", "out_after");
    nlohmann::json doc;
    std::ifstream(std::string(KW_SAMPLES_DIR) + "/reduction_two_pass.kwb") >> doc;
    doc["variables"][0] = nlohmann::json::array({"n", "1 << 10"});
    std::ofstream(dir / "reduction.kwb") << doc.dump();
    RunCommandOptions o;
    o.file = (dir / "reduction.kwb").string();
    o.device = "sim";
    o.runner = runner();
    o.outDir = (dir / "out").string();
    o.outAfter = {"1"};
    const Outcome r = run(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    const kw::NdArray partial = kw::NpyFile::read(dir / "out" / "after-step-1" / "partial.npy");
    ASSERT_EQ(partial.data.count(), 4u);
    EXPECT_EQ(partial.data.at(3), 1920.0);
    EXPECT_EQ(kw::NpyFile::read(dir / "out" / "after-step-1" / "x.npy").data.at(17), 1.0)
        << "an input comes back after a step although return_buffers is \"outputs\"";
    EXPECT_FALSE(fs::exists(dir / "out" / "after-step-2"));
}
