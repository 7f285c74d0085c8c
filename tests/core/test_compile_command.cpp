// `kwb-run compile` as a core class (serve/CompileCommand): what it prints on its
// output and error streams, and the exit code, for each way of asking.
#include "run/ExitCode.hpp"
#include "serve/CompileCommand.hpp"
#include "support/CommandOutput.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

namespace fs = std::filesystem;
using kw::CompileCommand;
using kw::CompileCommandOptions;
using kw::ExitCode;

namespace {

using kw::test::Outcome;

Outcome compile(CompileCommandOptions o) { return kw::test::executeCommand<CompileCommand>(std::move(o)); }

CompileCommandOptions source(const std::string& name, const std::string& text)
{
    const fs::path p = kw::test::freshDir("kw_test_compile_command", name) / (name + ".cu");
    std::ofstream(p, std::ios::binary) << text;
    CompileCommandOptions o;
    o.file = p.string();
    o.arch = "compute_75"; // the same on every machine
    return o;
}

const char* kScale = "__global__ void scale(float* x, float s, int n) { if (threadIdx.x < n) x[threadIdx.x] *= s; }\n";

} // namespace

TEST(CompileCommand, TextListsTheKernelsAndSaysForWhat)
{
    const Outcome r = compile(source("text", kScale));
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_EQ(r.out.rfind("kernel scale(float * x, float s, int n)\ncompiled for compute_75 in ", 0), 0u) << r.out;
    EXPECT_EQ(r.err, "");
}

TEST(CompileCommand, JsonIsOneObjectWithThePtxOnlyWhenEmitted)
{
    CompileCommandOptions o = source("json", kScale);
    o.json = true;
    const Outcome plain = compile(o);
    ASSERT_EQ(plain.code, ExitCode::Ok) << plain.err;
    const nlohmann::json j = nlohmann::json::parse(plain.out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["arch"], "compute_75");
    EXPECT_FALSE(j.contains("ptx"));
    o.emit = "ptx";
    const nlohmann::json withPtx = nlohmann::json::parse(compile(o).out);
    EXPECT_NE(withPtx["ptx"].get<std::string>().find(".entry"), std::string::npos);
}

TEST(CompileCommand, EmitPtxPrintsThePtxItself)
{
    CompileCommandOptions o = source("ptx", kScale);
    o.emit = "ptx";
    const Outcome r = compile(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_NE(r.out.find(".visible .entry"), std::string::npos) << r.out;
}

TEST(CompileCommand, EmitCubinNeedsARealArch)
{
    CompileCommandOptions o = source("virtual", kScale);
    o.emit = "cubin";
    const Outcome r = compile(o);
    EXPECT_EQ(r.code, ExitCode::BadInput);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "kwb-run: no CUBIN: compute_75 is a virtual architecture (give --arch sm_XX; without a GPU "
              "the default is PTX only)\n");
}

TEST(CompileCommand, EmitCubinWritesTheElfImageOrItsHexInJson)
{
    CompileCommandOptions o = source("cubin", kScale);
    o.arch = "sm_90";
    o.emit = "cubin";
    const Outcome binary = compile(o);
    ASSERT_EQ(binary.code, ExitCode::Ok) << binary.err;
    EXPECT_EQ(binary.out.substr(0, 4),
              "\x7f"
              "ELF");
    o.json = true;
    const nlohmann::json j = nlohmann::json::parse(compile(o).out);
    EXPECT_EQ(j["cubin_hex"].get<std::string>().substr(0, 8), "7f454c46");
    EXPECT_EQ(j["cubin_hex"].get<std::string>().size(), binary.out.size() * 2);
}

TEST(CompileCommand, CompileErrorsArePrintedWithTheirPlaceAndExitOne)
{
    const Outcome r = compile(source("bad", "__global__ void k(float* x)\n{\n    x[0] = undefined_name;\n}\n"));
    EXPECT_EQ(r.code, ExitCode::CompileErrors) << r.err;
    EXPECT_NE(r.out.find("bad.cu:3:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("failed for compute_75 in "), std::string::npos) << r.out;
}

TEST(CompileCommand, AFileThatCannotBeReadIsReportedNotThrown)
{
    CompileCommandOptions o;
    o.file = "/nonexistent/kernel.cu";
    const Outcome r = compile(o);
    EXPECT_EQ(r.code, ExitCode::BadInput);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "kwb-run: io error: cannot read /nonexistent/kernel.cu\n");
}

TEST(CompileCommand, ADocumentGetsTheOccupancyOfItsLaunch)
{
    // 64 KiB of static shared memory a block: 3 blocks of 8 warps fit the simulator's
    // 227 KiB, so 24 of 64 warps per SM.
    const fs::path dir = kw::test::freshDir("kw_test_compile_command", "occupancy");
    std::ofstream(dir / "tile.kwb", std::ios::binary) << R"JSON({
  "format": "kernel-workbench", "version": 1,
  "source": "__global__ void tile(float* p) { __shared__ float t[16384]; t[threadIdx.x] = 1; __syncthreads(); p[threadIdx.x] = t[255 - threadIdx.x]; }\n",
  "kernel": "tile",
  "variables": [["n", "256"]],
  "buffers": [{"name": "p", "dtype": "f32", "count": "n", "init": {"kind": "zeros"}, "direction": "out"}],
  "args": [{"name": "p", "buffer": "p"}],
  "launch": {"grid": [1, 1, 1], "block": ["n", 1, 1]}
})JSON";
    CompileCommandOptions o;
    o.file = (dir / "tile.kwb").string();
    o.arch = "compute_75";
    o.device = "sim";
    const Outcome r = compile(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    const std::size_t at = r.out.find("\noccupancy 38 % on CPU simulator");
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(sim): 24 of 64 warps per SM, 3 blocks of 256 threads per SM, limited by shared memory; "
                         "registers not counted",
                         at),
              std::string::npos)
        << r.out;
}

TEST(CompileCommand, ACuFileHasNoLaunchAndNoOccupancy)
{
    const Outcome r = compile(source("nolaunch", kScale));
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    EXPECT_EQ(r.out.find("occupancy"), std::string::npos) << r.out;
}

TEST(CompileCommand, ADocumentOfStepsGetsTheOccupancyOfEachLaunchStep)
{
    // Two kernels: tile (64 KiB of shared memory: 3 blocks of 256 threads per SM) and
    // copy; the third launch's block depends on the pass index, the fourth's on a buffer.
    const fs::path dir = kw::test::freshDir("kw_test_compile_command", "step_occupancy");
    std::ofstream(dir / "steps.kwb", std::ios::binary) << R"JSON({
  "format": "kernel-workbench", "version": 2,
  "source": "__global__ void tile(float* p) { __shared__ float t[16384]; t[threadIdx.x] = 1; __syncthreads(); p[threadIdx.x] = t[255 - threadIdx.x]; }\n__global__ void copy(float* p) { p[threadIdx.x] = 0; }\n",
  "kernels": ["tile", "copy"],
  "variables": [["n", "256"]],
  "buffers": [{"name": "p", "dtype": "f32", "count": "n", "init": {"kind": "zeros"}}],
  "steps": [
    {"launch": "tile", "name": "first", "grid": 1, "block": "n", "args": [{"buffer": "p"}]},
    {"launch": "copy", "grid": 1, "block": 64, "args": [{"buffer": "p"}]},
    {"repeat": 2, "index": "k", "steps": [{"launch": "copy", "grid": 1, "block": "128 << k", "args": [{"buffer": "p"}]}]},
    {"launch": "copy", "grid": 1, "block": "p(0) + 32", "args": [{"buffer": "p"}]}
  ]
})JSON";
    CompileCommandOptions o;
    o.file = (dir / "steps.kwb").string();
    o.arch = "compute_75";
    o.device = "sim";
    const Outcome r = compile(o);
    ASSERT_EQ(r.code, ExitCode::Ok) << r.err;
    const std::size_t first = r.out.find("\nstep 1 (first: tile): occupancy 38 % on CPU simulator");
    ASSERT_NE(first, std::string::npos) << r.out;
    EXPECT_NE(
        r.out.find("(sim): 24 of 64 warps per SM, 3 blocks of 256 threads per SM, limited by shared memory", first),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\nstep 2 (copy): occupancy "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" blocks of 64 threads per SM"), std::string::npos) << r.out;
    const std::size_t third = r.out.find("\nstep 3.1 (copy): occupancy ");
    ASSERT_NE(third, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("blocks of 128 threads per SM", third), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" (its launch depends on a pass index: shown for the first pass)\n", third), std::string::npos)
        << r.out;
    const std::size_t second = r.out.find("\nstep 2 (copy)");
    EXPECT_EQ(r.out.substr(second, r.out.find('\n', second + 1) - second).find("pass index"), std::string::npos)
        << "step 2 does not depend on it\n"
        << r.out;
    EXPECT_NE(r.out.find("\nstep 4 (copy): occupancy not shown: its launch reads buffer p, known only while running\n"),
              std::string::npos)
        << r.out;
}
