// --check through RunEngine: on a `cuda` device the whole run goes to the
// ExternalCheck (compute-sanitizer, serve/SanitizedRun); on other backends the check
// is the backend's own (LaunchConfig::check). And the findings' JSON form.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/ExternalCheck.hpp"
#include "run/RunEngine.hpp"
#include "serve/ResultJson.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace kw;
using nlohmann::json;

namespace {

class CheckingBackend : public Backend {
public:
    explicit CheckingBackend(std::string id)
        : id_(std::move(id))
    {
    }
    int launches = 0;
    LaunchConfig lastConfig;

    DeviceInfo device() const override
    {
        DeviceInfo d;
        d.id = id_;
        d.name = "fake " + id_;
        return d;
    }
    std::string compileArch() const override { return "compute_75"; }
    LaunchReport launch(const KernelImage&, std::vector<BufferArg>&, const std::vector<LaunchArg>&,
                        const LaunchConfig& config) override
    {
        ++launches;
        lastConfig = config;
        LaunchReport r;
        if (config.check == CheckTool::Racecheck) {
            CheckFinding f;
            f.tool = CheckTool::Racecheck;
            f.kind = "shared-memory race";
            f.message = "race";
            f.line = 2;
            r.findings.push_back(f);
        }
        return r;
    }

private:
    std::string id_;
};

class RecordingCheck : public ExternalCheck {
public:
    int calls = 0;
    DeviceInfo device;
    CheckTool tool = CheckTool::None;
    RunOverrides overrides;

    RunResult run(const Document&, const DeviceInfo& d, CheckTool t, const RunOverrides& o) override
    {
        ++calls;
        device = d;
        tool = t;
        overrides = o;
        RunResult r;
        r.device = d;
        r.compile.ok = true;
        CheckFinding f;
        f.tool = t;
        f.kind = "out of bounds write";
        f.line = 1;
        r.findings.push_back(f);
        return r;
    }
};

Document smallDocument()
{
    return DocumentReader::readString(R"JSON({
      "format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(int* p, int n)\n{ p[threadIdx.x] = n; }\n",
      "kernel": "k",
      "buffers": [{"name": "p", "dtype": "i32", "count": 32, "direction": "out"}],
      "args": [{"name": "p", "buffer": "p"}, {"name": "n", "type": "i32", "value": "3"}],
      "launch": {"grid": [1], "block": [32]}
    })JSON");
}

} // namespace

TEST(RunEngineChecks, OnAGpuTheRunGoesUnderTheExternalTool)
{
    Compiler compiler;
    CheckingBackend gpu("cuda:1");
    RecordingCheck sanitizer;
    RunEngine engine(compiler, gpu);
    engine.setExternalCheck(&sanitizer);
    std::vector<std::string> stages;
    engine.onStage([&](const std::string& s) { stages.push_back(s); });
    RunOverrides o;
    o.check = CheckTool::Initcheck;
    o.timeLimitSeconds = 3;
    const RunResult r = engine.run(smallDocument(), o);
    EXPECT_EQ(sanitizer.calls, 1);
    EXPECT_EQ(gpu.launches, 0) << "the child launches, not this process";
    EXPECT_EQ(sanitizer.device.id, "cuda:1");
    EXPECT_EQ(sanitizer.tool, CheckTool::Initcheck);
    EXPECT_EQ(sanitizer.overrides.timeLimitSeconds, 3.0);
    EXPECT_EQ(r.check, CheckTool::Initcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(stages, std::vector<std::string>{"launch"});
}

TEST(RunEngineChecks, OnAGpuWithoutTheToolsRunnerTheCheckIsRefused)
{
    Compiler compiler;
    CheckingBackend gpu("cuda:0");
    RunEngine engine(compiler, gpu);
    RunOverrides o;
    o.check = CheckTool::Memcheck;
    try {
        engine.run(smallDocument(), o);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Usage);
        EXPECT_NE(std::string(e.what()).find("--check memcheck on cuda:0"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--device sim"), std::string::npos) << e.what();
    }
    EXPECT_EQ(gpu.launches, 0);
}

TEST(RunEngineChecks, OnAGpuWithoutACheckTheRunIsAsAlways)
{
    Compiler compiler;
    CheckingBackend gpu("cuda:0");
    RecordingCheck sanitizer;
    RunEngine engine(compiler, gpu);
    engine.setExternalCheck(&sanitizer);
    const RunResult r = engine.run(smallDocument());
    EXPECT_EQ(sanitizer.calls, 0);
    EXPECT_EQ(gpu.launches, 1);
    EXPECT_EQ(gpu.lastConfig.check, CheckTool::None);
    EXPECT_EQ(r.check, CheckTool::None);
    EXPECT_TRUE(r.ok);
}

TEST(RunEngineChecks, ElsewhereTheBackendChecksAndItsFindingsFailTheRun)
{
    Compiler compiler;
    CheckingBackend sim("sim");
    RecordingCheck sanitizer;
    RunEngine engine(compiler, sim);
    engine.setExternalCheck(&sanitizer);
    RunOverrides o;
    o.check = CheckTool::Racecheck;
    const RunResult r = engine.run(smallDocument(), o);
    EXPECT_EQ(sanitizer.calls, 0);
    EXPECT_EQ(sim.launches, 1);
    EXPECT_EQ(sim.lastConfig.check, CheckTool::Racecheck);
    EXPECT_EQ(r.check, CheckTool::Racecheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, "shared-memory race");
    EXPECT_FALSE(r.ok) << "a finding fails the run";
    EXPECT_TRUE(r.compile.ok);
    EXPECT_FALSE(r.fault);

    // A check that finds nothing passes.
    o.check = CheckTool::Synccheck;
    const RunResult clean = engine.run(smallDocument(), o);
    EXPECT_EQ(clean.check, CheckTool::Synccheck);
    EXPECT_TRUE(clean.findings.empty());
    EXPECT_TRUE(clean.ok);
}

TEST(RunEngineChecks, FindingsTravelInTheResultJson)
{
    RunResult r;
    EXPECT_FALSE(toJson(r).contains("check")) << "absent when no check ran";
    EXPECT_FALSE(toJson(r).contains("findings"));
    EXPECT_EQ(runResultFromJson(toJson(r)).check, CheckTool::None);

    r.check = CheckTool::Memcheck;
    EXPECT_EQ(toJson(r)["findings"], json::array()) << "a check that found nothing says so";
    CheckFinding f;
    f.tool = CheckTool::Memcheck;
    f.kind = "out of bounds write";
    f.message = "Invalid __global__ write of size 4 bytes is out of bounds at add.cu:3";
    f.file = "add.cu";
    f.line = 3;
    f.block = Dim3{1, 0, 0};
    f.thread = Dim3{63, 0, 0};
    f.address = 0x7f192aa00100ull;
    f.count = 5;
    r.findings.push_back(f);
    CheckFinding bare;
    bare.tool = CheckTool::Memcheck;
    bare.kind = "CUDA API error";
    bare.message = "a call failed";
    r.findings.push_back(bare);
    CheckFinding race;
    race.tool = CheckTool::Racecheck;
    race.kind = "shared-memory race: read after write";
    race.message = "RAW hazard";
    race.file = "add.cu";
    race.line = 9;
    race.otherFile = "add.cu";
    race.otherLine = 7;
    r.findings.push_back(race);

    const json j = toJson(r);
    EXPECT_EQ(j["check"], "memcheck");
    EXPECT_EQ(j["findings"][0], json::parse(R"({"tool": "memcheck", "kind": "out of bounds write",
                              "message": "Invalid __global__ write of size 4 bytes is out of bounds at add.cu:3",
                              "file": "add.cu", "line": 3, "block": [1, 0, 0], "thread": [63, 0, 0],
                              "address": 139746066039040, "count": 5})"));
    EXPECT_TRUE(j["findings"][1]["file"].is_null());
    EXPECT_TRUE(j["findings"][1]["thread"].is_null());
    EXPECT_TRUE(j["findings"][1]["address"].is_null());
    EXPECT_EQ(j["findings"][2]["other_file"], "add.cu"); // a race's earlier access
    EXPECT_EQ(j["findings"][2]["other_line"], 7);

    const RunResult back = runResultFromJson(json::parse(j.dump()));
    EXPECT_EQ(back.check, CheckTool::Memcheck);
    ASSERT_EQ(back.findings.size(), 3u);
    const CheckFinding& b = back.findings[0];
    EXPECT_EQ(b.tool, CheckTool::Memcheck);
    EXPECT_EQ(b.kind, f.kind);
    EXPECT_EQ(b.message, f.message);
    EXPECT_EQ(b.file, "add.cu");
    EXPECT_EQ(b.line, 3);
    EXPECT_EQ(b.block, f.block);
    EXPECT_EQ(b.thread, f.thread);
    EXPECT_EQ(b.address, f.address);
    EXPECT_EQ(b.count, 5u);
    EXPECT_FALSE(back.findings[1].thread);
    EXPECT_FALSE(back.findings[1].address);
    EXPECT_EQ(back.findings[1].count, 1u);
    EXPECT_EQ(back.findings[1].otherLine, 0);
    EXPECT_EQ(back.findings[2].otherFile, "add.cu");
    EXPECT_EQ(back.findings[2].otherLine, 7);
    EXPECT_EQ(back.findings[2].line, 9);
}
