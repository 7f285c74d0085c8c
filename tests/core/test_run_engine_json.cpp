// The JSON forms of run, compile and device results (docs/protocol.md) round-trip.
#include "launch/RunResult.hpp"
#include "serve/ResultJson.hpp"
#include "serve/RunRequestOptions.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace kw;
using nlohmann::json;

TEST(RunResultJson, RunResultRoundTrips)
{
    RunResult r;
    r.ok = false;
    r.device.id = "cuda:0";
    r.device.name = "NVIDIA H200";
    r.device.ccMajor = 9;
    r.device.limits.maxBlock = {1024, 1024, 64};
    r.compile.ok = true;
    r.compile.arch = "sm_90";
    r.compile.loweredNames = {{"scale<float,128>", "_Z5scaleIfLi128EEvPT_"}};
    Diagnostic d;
    d.file = "kernel.cu";
    d.line = 3;
    d.column = 7;
    d.severity = Severity::Warning;
    d.message = "unused variable";
    d.notes = {"detected during instantiation"};
    r.compile.diagnostics.push_back(d);
    KernelSignature sig;
    sig.name = "scale";
    sig.templateParams = {"typename T", "int N"};
    sig.params = {{"x", "T *", "T", true, false, true}};
    r.compile.kernels.push_back(sig);
    r.grid = {4, 2, 1};
    r.block = {128, 1, 1};
    r.sharedBytes = 256;
    Fault f;
    f.kind = FaultKind::MisalignedAddress;
    f.message = "kernel scale faulted";
    f.block = Dim3{1, 0, 0};
    r.fault = f;
    r.printf.raw = "hi\n";
    r.printf.lines = {{Dim3{0, 0, 0}, Dim3{5, 1, 0}, "hi"}};
    r.printf.untagged = {"x"};
    r.printf.truncated = true;
    r.timings.kernelMs = {1.5, 2.5};
    r.timings.medianMs = 2.0;
    r.timings.bytesMoved = 1u << 20;
    CheckResult c;
    c.buffer = "y";
    c.expect = "2*x";
    c.checked = 10;
    c.mismatches = 1;
    c.firstMismatches = {{7, 1.0, 2.0}};
    r.checks.push_back(c);
    BufferResult b;
    b.name = "y";
    b.direction = Direction::Out;
    b.shape = {2, 5};
    b.data = HostBuffer(DType::F16, 10);
    r.buffers.push_back(std::move(b));
    r.warnings = {"careful"};

    const json j = toJson(r);
    EXPECT_EQ(j["fault"]["kind"], "misaligned_address");
    EXPECT_EQ(j["launch"]["grid"], json({4, 2, 1}));
    EXPECT_EQ(j["buffers"][0]["dtype"], "f16");
    EXPECT_EQ(j["buffers"][0]["count"], 10);
    EXPECT_EQ(j["buffers"][0]["direction"], "out");
    EXPECT_FALSE(j["compile"].contains("ptx"));

    // Through text, as over the protocol.
    const RunResult back = runResultFromJson(json::parse(j.dump()));
    EXPECT_FALSE(back.ok);
    EXPECT_EQ(back.device.name, "NVIDIA H200");
    EXPECT_EQ(back.device.limits.maxBlock.z, 64u);
    ASSERT_EQ(back.compile.diagnostics.size(), 1u);
    EXPECT_EQ(back.compile.diagnostics[0].severity, Severity::Warning);
    EXPECT_EQ(back.compile.diagnostics[0].column, 7);
    EXPECT_EQ(back.compile.diagnostics[0].notes.size(), 1u);
    EXPECT_EQ(back.compile.loweredNames.at("scale<float,128>"), "_Z5scaleIfLi128EEvPT_");
    ASSERT_EQ(back.compile.kernels.size(), 1u);
    EXPECT_TRUE(back.compile.kernels[0].params[0].isRestrict);
    EXPECT_EQ(back.grid.y, 2u);
    EXPECT_EQ(back.sharedBytes, 256u);
    ASSERT_TRUE(back.fault);
    EXPECT_EQ(back.fault->kind, FaultKind::MisalignedAddress);
    ASSERT_TRUE(back.fault->block);
    EXPECT_EQ(back.fault->block->x, 1u);
    EXPECT_FALSE(back.fault->thread);
    EXPECT_EQ(back.printf.lines[0].thread.x, 5u);
    EXPECT_TRUE(back.printf.truncated);
    EXPECT_EQ(back.timings.kernelMs, (std::vector<double>{1.5, 2.5}));
    EXPECT_EQ(back.timings.bytesMoved, 1u << 20);
    ASSERT_EQ(back.checks.size(), 1u);
    EXPECT_EQ(back.checks[0].firstMismatches[0].index, 7u);
    ASSERT_EQ(back.buffers.size(), 1u);
    EXPECT_EQ(back.buffers[0].data.dtype(), DType::F16);
    EXPECT_EQ(back.buffers[0].shape, (std::vector<std::size_t>{2, 5}));
    EXPECT_EQ(back.buffers[0].direction, Direction::Out);
    EXPECT_EQ(back.warnings, std::vector<std::string>{"careful"});
    EXPECT_EQ(toJson(back)["fault"], j["fault"]);
}

TEST(RunResultJson, TheBuffersAfterAStepAndTheStepBuffersRequestRoundTrip)
{
    RunResult r;
    r.steps.resize(2);
    r.steps[0].path = "1";
    r.steps[1].path = "1.1";
    BufferResult b;
    b.name = "u";
    b.direction = Direction::In;
    b.shape = {2, 3};
    b.data = HostBuffer(DType::I32, 6);
    r.steps[1].buffers.push_back(b);
    const json j = toJson(r);
    EXPECT_FALSE(j["steps"][0].contains("buffers")) << "only for the steps asked for";
    EXPECT_EQ(j["steps"][1]["buffers"][0]["count"], 6);
    const RunResult back = runResultFromJson(json::parse(j.dump()));
    ASSERT_EQ(back.steps.size(), 2u);
    EXPECT_TRUE(back.steps[0].buffers.empty());
    ASSERT_EQ(back.steps[1].buffers.size(), 1u);
    EXPECT_EQ(back.steps[1].buffers[0].name, "u");
    EXPECT_EQ(back.steps[1].buffers[0].direction, Direction::In);
    EXPECT_EQ(back.steps[1].buffers[0].data.dtype(), DType::I32);
    EXPECT_EQ(back.steps[1].buffers[0].shape, (std::vector<std::size_t>{2, 3}));

    RunOverrides o;
    o.stepBuffers = {"1.1", "*"};
    json request = json::object();
    writeRunOptions(request, o);
    EXPECT_EQ(request["step_buffers"], json({"1.1", "*"}));
    EXPECT_EQ(readRunOptions(request).stepBuffers, o.stepBuffers);
    EXPECT_FALSE([] {
        json none = json::object();
        writeRunOptions(none, RunOverrides{});
        return none.contains("step_buffers");
    }());
    EXPECT_THROW(readRunOptions(json{{"step_buffers", "1"}}), Error);
    EXPECT_THROW(readRunOptions(json{{"step_buffers", {1}}}), Error);
}

TEST(RunResultJson, CompileResultCarriesPtxOnlyWhenAsked)
{
    CompileResult c;
    c.ok = true;
    c.ptx = ".version 8.0";
    EXPECT_FALSE(toJson(c).contains("ptx"));
    EXPECT_EQ(toJson(c, true)["ptx"], ".version 8.0");
    EXPECT_EQ(compileResultFromJson(toJson(c, true)).ptx, ".version 8.0");
}

TEST(RunResultJson, UnknownEnumsAreProtocolErrors)
{
    json j = toJson(RunResult{});
    j["fault"] = {{"kind", "melted"}};
    EXPECT_ANY_THROW(runResultFromJson(j));
}

TEST(RunResultJson, EveryFaultKindHasADistinctName)
{
    std::set<std::string> names;
    for (FaultKind k : {FaultKind::None, FaultKind::IllegalAddress, FaultKind::MisalignedAddress, FaultKind::Trap,
                        FaultKind::Assert, FaultKind::LaunchFailure, FaultKind::Timeout, FaultKind::OutOfBounds,
                        FaultKind::DivergentBarrier, FaultKind::Unsupported, FaultKind::Other})
        names.insert(toString(k));
    EXPECT_EQ(names.size(), 11u);
}
