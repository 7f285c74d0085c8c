// Kernels as people write them (tests/data/docs/real): module globals, whole .cu files,
// the C headers, special registers, spin waits, aggregate checks, reference buffers,
// numeric defines, "copy", "args": "auto" and vector types, through kwb-run on the simulator.
#include "compile/HostCodeFilter.hpp"
#include "compile/SignatureParser.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "gpu/ChildProcess.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using kwtest::runKwb;
using nlohmann::json;

namespace {

const fs::path kRealDir = fs::path(KW_TEST_DATA_DIR) / "docs" / "real";

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A copy of a real document with one edit, beside the original so relative files resolve.
fs::path variant(const std::string& name, const std::string& from, const std::string& to)
{
    std::string text = readText(kRealDir / name);
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    // Per process: ctest runs the cases of this file side by side.
    static const fs::path dir = kw::test::freshDir("kw_test_real", "variants");
    for (const auto& e : fs::directory_iterator(kRealDir))
        if (e.path().extension() != ".kwb")
            fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
    const fs::path p = dir / ("variant_" + name);
    std::ofstream(p, std::ios::binary) << text;
    return p;
}

fs::path scratch(const std::string& name, const std::string& text)
{
    static const fs::path dir = kw::test::freshDir("kw_test_real", "scratch");
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
}

json runJson(const fs::path& doc)
{
    auto r = runKwb({"run", doc.string(), "--device", "sim", "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    return r.out.empty() ? json() : json::parse(r.out);
}

std::vector<std::string> realDocuments()
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(kRealDir))
        if (e.path().extension() == ".kwb")
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST(RealKernels, EveryDocumentRunsOnTheSimulatorAndItsChecksPass)
{
    const auto names = realDocuments();
    ASSERT_GE(names.size(), 8u);
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        const json j = runJson(kRealDir / name);
        ASSERT_TRUE(j.is_object());
        EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
        EXPECT_FALSE(j["checks"].empty());
        for (const auto& c : j["checks"])
            EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();
    }
}

TEST(RealKernels, TheDocumentsArchIsWhatTheSimulatorCompilesFor)
{
    // options.arch sm_90: the simulator runs PTX, so compute_90, with sm_90's bf16 forms.
    const json j = runJson(kRealDir / "arch_sm90_bf16.kwb");
    EXPECT_EQ(j["compile"]["arch"], "compute_90") << j["compile"].dump();
    auto ptx = runKwb({"compile", (kRealDir / "arch_sm90_bf16.kwb").string(), "--emit", "ptx"});
    EXPECT_NE(ptx.out.find("max.bf16"), std::string::npos) << ptx.out;
}

TEST(RealKernels, ADeviceGlobalIsReadBackAndShownLikeAnOutput)
{
    const json j = runJson(kRealDir / "constant_filter.kwb");
    const auto& buffers = j["buffers"];
    const auto written
        = std::find_if(buffers.begin(), buffers.end(), [](const json& b) { return b["name"] == "written"; });
    ASSERT_NE(written, buffers.end()) << buffers.dump();
    EXPECT_EQ((*written)["direction"], "inout");
    EXPECT_EQ((*written)["count"], 1);
}

TEST(RealKernels, AGlobalOfTheWrongSizeIsRefusedNamingBothSizes)
{
    auto r
        = runKwb({"run", variant("constant_filter.kwb", "\"count\": 5,", "\"count\": 4,").string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("global 'taps': the variable is 20 bytes but the document gives 16 bytes"), std::string::npos)
        << r.err;
}

TEST(RealKernels, AGlobalTheModuleLacksIsRefusedListingTheVariables)
{
    auto r = runKwb({"run", variant("constant_filter.kwb", "{\"name\": \"taps\"", "{\"name\": \"tapz\"").string(),
                     "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("global 'tapz'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("taps"), std::string::npos) << r.err;
}

TEST(RealKernels, AGlobalCannotBePassedAsAnArgument)
{
    auto r = runKwb({"run",
                     variant("constant_filter.kwb", "{\"name\": \"in\", \"buffer\": \"in\"}",
                             "{\"name\": \"in\", \"buffer\": \"taps\"}")
                         .string(),
                     "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("is a global"), std::string::npos) << r.err;
}

TEST(RealKernels, ReferenceBuffersAreNotUploadedOrCountedInBytesMoved)
{
    const json j = runJson(kRealDir / "checks_and_refs.kwb");
    // data (10000 u8 in) + bins (16 u32 inout, both ways); expected and data_copy are references.
    EXPECT_EQ(j["timings"]["bytes_moved"], 10000 + 16 * 4 * 2);
    const auto& buffers = j["buffers"];
    EXPECT_TRUE(std::any_of(buffers.begin(), buffers.end(), [](const json& b) { return b["name"] == "expected"; }));
}

TEST(RealKernels, DefinesAreNumbersInExpressionsAndComputedFromVariables)
{
    const json j = runJson(kRealDir / "checks_and_refs.kwb");
    EXPECT_EQ(j["launch"]["block"][0], 128); // "block": ["THREADS"]
    auto r = runKwb({"compile", (kRealDir / "cg_tile_reduce.kwb").string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const json c = json::parse(r.out);
    EXPECT_TRUE(c["ok"].get<bool>()) << c.dump(2);
}

// From sm_80 on, cooperative groups keep a multi-warp tile's scratch in the block's
// reserved shared memory (%reserved_smem_offset_1), not in the user's block_tile_memory:
// the simulator gives such a module a zeroed window of its own, so the reduction runs
// for the arch of an A100 or H100 as it does for sm_75, and initcheck finds nothing.
TEST(RealKernels, MultiWarpTilesRunOnTheSimulatorForSm80AndLater)
{
    auto r = runKwb(
        {"run",
         variant("cg_tile_reduce.kwb", "\"options\": {\"defines\"", "\"options\": {\"arch\": \"sm_90\", \"defines\"")
             .string(),
         "--device", "sim", "--check", "initcheck", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
    EXPECT_EQ(j["findings"].size(), 0u) << j["findings"].dump(2);
    for (const json& c : j["checks"])
        EXPECT_TRUE(c["passed"].get<bool>()) << c.dump(2);
}

TEST(RealKernels, MultiWarpTilesAreRaceFreeUnderRacecheck)
{
    // The warps of a 128-thread tile pass their partial sums through cooperative groups'
    // scratch, ordered by a counter they release and acquire (red.release, atom.acq_rel,
    // ld.acquire) and by __syncwarp and shuffles within each warp: no hazard, on sm_75
    // (scratch in the kernel's shared memory) as on sm_90 (in the reserved window).
    for (const std::string arch : {"sm_75", "sm_90"}) {
        auto r = runKwb({"run",
                         variant("cg_tile_reduce.kwb", "\"options\": {\"defines\"",
                                 "\"options\": {\"arch\": \"" + arch + "\", \"defines\"")
                             .string(),
                         "--device", "sim", "--check", "racecheck", "--json"});
        ASSERT_EQ(r.exitCode, 0) << arch << r.out << r.err;
        const json j = json::parse(r.out);
        EXPECT_TRUE(j["ok"].get<bool>()) << arch;
        EXPECT_EQ(j["findings"].size(), 0u) << arch << j["findings"].dump(2);
        for (const json& c : j["checks"])
            EXPECT_TRUE(c["passed"].get<bool>()) << arch << c.dump(2);
    }
}

TEST(RealKernels, AFailingAggregateCheckReportsTheAggregateAndTheExpectation)
{
    auto r = runKwb({"run",
                     variant("checks_and_refs.kwb", "\"aggregate\": \"sum\", \"expect\": \"n\"",
                             "\"aggregate\": \"sum\", \"expect\": \"n + 1\"")
                         .string(),
                     "--device", "sim", "--json"});
    EXPECT_EQ(r.exitCode, 4) << r.out << r.err;
    const json j = json::parse(r.out);
    const json& c = j["checks"][0];
    EXPECT_FALSE(c["passed"].get<bool>());
    EXPECT_EQ(c["expect"], "sum(bins) == n + 1");
    EXPECT_EQ(c["first_mismatches"][0]["got"], 10000);
    EXPECT_EQ(c["first_mismatches"][0]["expected"], 10001);
}

TEST(RealKernels, AnAggregatesOfMayReadABuffersContentsBeforeTheLaunch)
{
    // bins is inout and starts at zero: every bin grew by what it now holds. Only `of`
    // names bins_in; no `expect` does.
    auto r = runKwb({"run",
                     variant("checks_and_refs.kwb", "\"of\": \"bins == ceil(n / BINS)\"",
                             "\"of\": \"bins - bins_in == ceil(n / BINS)\"")
                         .string(),
                     "--device", "sim", "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const json j = json::parse(r.out);
    for (const auto& c : j["checks"])
        EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();
}

TEST(RealKernels, ABufferArgumentsOffsetMustNameAnElementOfTheBuffer)
{
    auto past = runKwb({"run", variant("pointer_offset.kwb", "\"offset\": \"r\"", "\"offset\": \"n + 2 * r\"").string(),
                        "--device", "sim"});
    EXPECT_EQ(past.exitCode, 2) << past.out << past.err;
    EXPECT_NE(past.err.find("args[0] (in).offset: 1030 is not an element of buffer \"in\" (0 to 1029)"),
              std::string::npos)
        << past.err;
    auto half = runKwb({"run", variant("pointer_offset.kwb", "\"offset\": \"r\"", "\"offset\": \"r / 2\"").string(),
                        "--device", "sim"});
    EXPECT_EQ(half.exitCode, 2) << half.err;
    EXPECT_NE(half.err.find("1.5 is not an element"), std::string::npos) << half.err;
    auto scalar = runKwb({"run",
                          variant("pointer_offset.kwb", "{\"name\": \"in\", \"buffer\": \"in\", \"offset\": \"r\"}",
                                  "{\"name\": \"in\", \"type\": \"i32\", \"value\": 1, \"offset\": \"r\"}")
                              .string(),
                          "--device", "sim"});
    EXPECT_EQ(scalar.exitCode, 2) << scalar.err;
    EXPECT_NE(scalar.err.find("a scalar has no offset"), std::string::npos) << scalar.err;
}

TEST(RealKernels, ACopyOfAMissingBufferIsRefusedWhenLoaded)
{
    auto r = runKwb(
        {"run", variant("checks_and_refs.kwb", "\"from\": \"data\"", "\"from\": \"dta\"").string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("no other buffer named \"dta\""), std::string::npos) << r.err;
}

TEST(RealKernels, ArgsAutoNamesTheParameterThatHasNoBufferOrVariable)
{
    auto r = runKwb({"run", variant("whole_file.kwb", "[\"a\", 2]", "[\"alpha\", 2]").string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("parameter 1 (a) is a scalar but there is no variable named \"a\""), std::string::npos)
        << r.err;
}

TEST(RealKernels, DocumentsWithTheNewFieldsSurviveWriteAndRead)
{
    for (const char* name : {"constant_filter.kwb", "checks_and_refs.kwb", "whole_file.kwb"}) {
        SCOPED_TRACE(name);
        const kw::Document doc = kw::DocumentReader::readFile(kRealDir / name);
        const std::string text = kw::DocumentWriter::toString(doc);
        const kw::Document again = kw::DocumentReader::readString(text, kRealDir / name);
        EXPECT_EQ(kw::DocumentWriter::toString(again), text);
        EXPECT_EQ(again.buffers.size(), doc.buffers.size());
        EXPECT_EQ(again.argsAuto, doc.argsAuto);
        for (std::size_t b = 0; b < doc.buffers.size(); ++b) {
            EXPECT_EQ(again.buffers[b].global, doc.buffers[b].global);
            EXPECT_EQ(again.buffers[b].init.kind, doc.buffers[b].init.kind);
        }
    }
}

TEST(RealKernels, AVectorParameterRefusesABufferOfTheWrongElementSize)
{
    auto r = runKwb(
        {"run",
         variant("vector_types.kwb", "{\"name\": \"in\", \"dtype\": \"f32\"", "{\"name\": \"in\", \"dtype\": \"f64\"")
             .string(),
         "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("8-byte elements (f64) but parameter \"const float4 * in\" has 4-byte components"),
              std::string::npos)
        << r.err;
    r = runKwb(
        {"run", variant("vector_types.kwb", "\"dtype\": \"i64\"", "\"dtype\": \"i32\"").string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("has 8-byte components"), std::string::npos) << r.err; // clock_t
    r = runKwb({"run",
                variant("vector_types.kwb", "{\"name\": \"out\", \"dtype\": \"f32\", \"count\": \"n\"",
                        "{\"name\": \"out\", \"dtype\": \"f32\", \"count\": \"n + 2\"")
                    .string(),
                "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("not a whole number of float4"), std::string::npos) << r.err;
}

TEST(RealKernels, APointerToAnUnknownStructIsWarnedAbout)
{
    const fs::path doc = scratch("unknown_struct.kwb", R"({
  "format": "kernel-workbench", "version": 1,
  "source": "struct Particle { float x, y, vx, vy; };\n__global__ void move(Particle* p, int n) { int i = threadIdx.x; if (i < n) p[i].x += p[i].vx; }\n",
  "kernel": "move",
  "variables": [["n", 8]],
  "buffers": [{"name": "p", "dtype": "f32", "count": "4 * n", "init": {"kind": "fill", "value": 1}}],
  "args": "auto",
  "launch": {"grid": [1], "block": ["n"]},
  "checks": [{"buffer": "p", "expect": "i % 4 == 0 ? 2 : 1"}]
})");
    const json j = runJson(doc);
    EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
    std::string warnings = j["warnings"].dump();
    EXPECT_NE(warnings.find("points to Particle, whose size is not known here"), std::string::npos) << warnings;
}

// A template kernel's `T*` is the instantiation's type: fill<int> with an i32 buffer is
// checked and says nothing; with an f32 buffer it says the types differ (the sizes
// match, so the run goes on) instead of claiming T's size is unknown; a T that is a
// struct the workbench does not know is named as such.
TEST(RealKernels, ATemplateKernelsPointerIsCheckedAsItsInstantiationHasIt)
{
    const std::string source = "struct Pixel { unsigned char r, g, b, a; };\n"
                               "template <class T> __global__ void fill(T* x, unsigned int n)\n"
                               "{ if (threadIdx.x < n) x[threadIdx.x] = T(); }\n"
                               "template __global__ void fill<Pixel>(Pixel*, unsigned int);\n";
    const auto document = [&](const std::string& name, const std::string& kernel, const std::string& dtype) {
        json d = {{"format", "kernel-workbench"},
                  {"version", 1},
                  {"source", source},
                  {"kernel", kernel},
                  {"buffers", {{{"name", "x"}, {"dtype", dtype}, {"count", 32}, {"direction", "out"}}}},
                  {"args", {{{"buffer", "x"}}, {{"type", "u32"}, {"value", 8}}}},
                  {"launch", {{"grid", 1}, {"block", 32}}},
                  {"checks", {{{"buffer", "x"}, {"expect", "0"}}}}};
        return scratch(name, d.dump(1));
    };
    json j = runJson(document("template_int.kwb", "fill<int>", "i32"));
    EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
    EXPECT_TRUE(j["warnings"].empty()) << j["warnings"].dump();

    j = runJson(document("template_float.kwb", "fill<int>", "f32"));
    const std::string mismatch = j["warnings"].dump();
    EXPECT_NE(mismatch.find("buffer x holds f32 but parameter x is int *"), std::string::npos) << mismatch;
    EXPECT_EQ(mismatch.find("not known"), std::string::npos) << mismatch;

    j = runJson(document("template_struct.kwb", "fill<Pixel>", "u8"));
    const std::string unknown = j["warnings"].dump();
    EXPECT_NE(unknown.find("points to Pixel, whose size is not known here"), std::string::npos) << unknown;
}

// A kernel's pointer left NULL, as main() does through a default argument: the document
// says {"buffer": null}, the kernel sees 0 (and skips what it would write there), the
// document keeps it when written again, and a scalar given to a pointer says how.
TEST(RealKernels, APointerParameterTakesANullPointer)
{
    const std::string source = "__global__ void bump(int* data, int* sums = NULL)\n"
                               "{\n"
                               "    data[threadIdx.x] += sums == NULL ? 1 : 2;\n"
                               "    if (sums != NULL) sums[threadIdx.x] = 7;\n"
                               "}\n";
    json d = {{"format", "kernel-workbench"},
              {"version", 1},
              {"source", source},
              {"kernel", "bump"},
              {"buffers", {{{"name", "data"}, {"dtype", "i32"}, {"count", 32}, {"init", {{"kind", "arange"}}}}}},
              {"args", {{{"buffer", "data"}}, {{"name", "sums"}, {"buffer", nullptr}}}},
              {"launch", {{"grid", 1}, {"block", 32}}},
              {"checks", {{{"buffer", "data"}, {"expect", "data_in + 1"}}}}};
    const fs::path doc = scratch("null_pointer.kwb", d.dump(1));
    const json j = runJson(doc);
    EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
    EXPECT_EQ(j.dump().find("FAILED"), std::string::npos) << j.dump(2);
    EXPECT_TRUE(j["warnings"].empty()) << j["warnings"].dump();

    const kw::Document read = kw::DocumentReader::readFile(doc);
    ASSERT_EQ(read.args.size(), 2u);
    EXPECT_TRUE(read.args[1].null);
    EXPECT_EQ(kw::DocumentWriter::toJson(read)["args"][1].dump(), R"({"name":"sums","buffer":null})");

    d["args"][1] = {{"type", "u64"}, {"value", 0}};
    auto r = runKwb({"run", scratch("scalar_pointer.kwb", d.dump(1)).string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("is a pointer; give {\"buffer\": NAME}, or {\"buffer\": null} for a null pointer"),
              std::string::npos)
        << r.err;
    d["args"] = "auto"; // binds by name: no buffer is named sums
    r = runKwb({"run", scratch("auto_pointer.kwb", d.dump(1)).string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("(for a null pointer, list the args and give {\"buffer\": null})"), std::string::npos)
        << r.err;
}

// An instruction the simulator cannot run that comes from a CUDA header (cooperative
// groups' multi-warp tiles read the reserved shared memory from sm_80 on) is named with
// its header, not as a line of the user's file.
TEST(RealKernels, AnUnsupportedInstructionOfAHeaderIsNamedWithItsFile)
{
    // isspacep is recognised but not run by the simulator; here it sits on line 4 of a
    // header, which the warning must name (it once read "line 4", as if of the source).
    scratch("space.cuh",
            "// Which state space a pointer is in.\n"
            "__device__ __noinline__ unsigned inGlobal(const void* p)\n"
            "{\n"
            "    unsigned r; asm volatile(\"{ .reg .pred q; isspacep.global q, %1; selp.u32 %0, 1, 0, q; }\" "
            ": \"=r\"(r) : \"l\"(p));\n"
            "    return r;\n"
            "}\n");
    const std::string source = "#include \"space.cuh\"\n"
                               "__global__ void where(const int* in, unsigned* out) { out[0] = inGlobal(in); }\n";
    const json d = {{"format", "kernel-workbench"},
                    {"version", 1},
                    {"source", source},
                    {"kernel", "where"},
                    {"buffers",
                     {{{"name", "in"}, {"dtype", "i32"}, {"count", 1}},
                      {{"name", "out"}, {"dtype", "u32"}, {"count", 1}, {"direction", "out"}}}},
                    {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}}},
                    {"launch", {{"grid", 1}, {"block", 1}}}};
    auto r = runKwb({"run", scratch("header_unsupported.kwb", d.dump(1)).string(), "--device", "sim"});
    EXPECT_NE(r.exitCode, 0) << r.out << r.err;
    const std::string said = r.out + r.err;
    EXPECT_NE(said.find("warning: sim: line 4 of /"), std::string::npos) << said;
    EXPECT_NE(said.find("space.cuh: `isspacep.global"), std::string::npos) << said;
}

TEST(RealKernels, HostCodeIsBlankedKeepingEveryLine)
{
    const std::string source = readText(kRealDir / "whole_file.cu");
    const kw::DeviceSource device = kw::HostCodeFilter::deviceOnly(source);
    ASSERT_EQ(device.text.size(), source.size());
    EXPECT_EQ(std::count(device.text.begin(), device.text.end(), '\n'), std::count(source.begin(), source.end(), '\n'));
    EXPECT_EQ(device.text.find("cudaMalloc"), std::string::npos);
    EXPECT_EQ(device.text.find("iostream"), std::string::npos);
    EXPECT_EQ(device.text.find("hostOnlyHelper"), std::string::npos);
    EXPECT_NE(device.text.find("__global__ void saxpy"), std::string::npos);
    EXPECT_NE(device.text.find("__device__ float twice"), std::string::npos);
    EXPECT_EQ(device.text.find("__global__ void saxpy"), source.find("__global__ void saxpy"));
    std::vector<std::string> what;
    for (const auto& r : device.removed)
        what.push_back(r.what);
    EXPECT_NE(std::find(what.begin(), what.end(), "function main"), what.end());
    EXPECT_NE(std::find(what.begin(), what.end(), "#include helper_cuda.h"), what.end());
}

TEST(RealKernels, DeviceMacrosAndClassBodiesAreKept)
{
    const std::string source = "#define HD __host__ __device__\n"
                               "struct V { float x; HD float twice() const { return 2 * x; } };\n"
                               "HD inline float sq(float v) { return v * v; }\n"
                               "namespace util { __device__ int one() { return 1; } int hostTwo() { return 2; } }\n"
                               "__constant__ float c[4] = {1, 2, 3, 4};\n"
                               "const int N = 4;\n"
                               "const char* name = \"sample\";\n"
                               "int counter = 0;\n"
                               "namespace cg = cooperative_groups;\n";
    const kw::DeviceSource device = kw::HostCodeFilter::deviceOnly(source);
    EXPECT_NE(device.text.find("float twice()"), std::string::npos);
    EXPECT_NE(device.text.find("HD inline float sq"), std::string::npos);
    EXPECT_NE(device.text.find("__device__ int one()"), std::string::npos);
    EXPECT_EQ(device.text.find("hostTwo"), std::string::npos);
    EXPECT_NE(device.text.find("__constant__ float c[4] = {1, 2, 3, 4};"), std::string::npos);
    EXPECT_NE(device.text.find("const int N = 4;"), std::string::npos);
    EXPECT_NE(device.text.find("namespace cg = cooperative_groups;"), std::string::npos);
    EXPECT_EQ(device.text.find("sample"), std::string::npos); // NVRTC refuses host variables
    EXPECT_EQ(device.text.find("counter"), std::string::npos);
}

TEST(RealKernels, TheBodiesOfInlineDeviceHelpersAreNeverBlanked)
{
    // A histogram's helpers as a vendor sample writes them: their statements once looked
    // like host prototypes, were blanked, and the kernel computed zeros without a word.
    const std::string source
        = "#define UMUL(a, b) __umul24((a), (b))\n"
          "inline __device__ void addByte(unsigned int* s, unsigned int data)\n"
          "{\n"
          "    s[UMUL(data, 4)]++;\n"
          "}\n"
          "inline __device__ void addWord(unsigned int* s, unsigned int data)\n"
          "{\n"
          "    addByte(s, data & 0xffU);\n"
          "    addByte(s, (data >> 8) & 0xffU);\n"
          "}\n"
          "static inline __host__ __device__ int half(int v) { return v / 2; }\n"
          "__global__ void histo(unsigned int* s, const unsigned int* d) { addWord(s, d[threadIdx.x]); }\n"
          "inline namespace v1 { int hostOnly(int x); }\n";
    const kw::DeviceSource device = kw::HostCodeFilter::deviceOnly(source);
    const std::size_t kept = source.find("inline namespace");
    EXPECT_EQ(device.text.substr(0, kept), source.substr(0, kept));
    ASSERT_EQ(device.removed.size(), 1u);
    EXPECT_EQ(device.removed[0].firstLine, 13);
    EXPECT_EQ(device.text.find("hostOnly"), std::string::npos);
}

TEST(RealKernels, AWholeFileCompilesWithANoteForEachHostPart)
{
    auto r = runKwb({"compile", (kRealDir / "whole_file.cu").string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const json j = json::parse(r.out);
    bool mainNote = false;
    for (const auto& d : j["diagnostics"])
        if (d["severity"] == "note"
            && d["message"].get<std::string>().find("function main (lines 22-37) is host code") != std::string::npos)
            mainNote = d["line"] == 22;
    EXPECT_TRUE(mainNote) << j["diagnostics"].dump(2);
}

TEST(RealKernels, ADeviceFunctionCallingRemovedHostCodeGetsTheErrorOnItsLine)
{
    const fs::path cu = scratch("calls_host.cu",
                                "#include <iostream>\n"
                                "float helper(float v) { return v + 1; }\n"
                                "\n"
                                "__global__ void k(float* p)\n"
                                "{\n"
                                "    p[0] = helper(p[0]);\n"
                                "}\n"
                                "int main() { std::cout << 1; }\n");
    auto r = runKwb({"compile", cu.string(), "--json"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const json j = json::parse(r.out);
    bool located = false;
    for (const auto& d : j["diagnostics"])
        if (d["severity"] == "error")
            located
                = located || (d["line"] == 6 && d["message"].get<std::string>().find("helper") != std::string::npos);
    EXPECT_TRUE(located) << j["diagnostics"].dump(2);
}

TEST(RealKernels, CompileEmitPtxPrintsTheModuleAndJsonIncludesIt)
{
    auto r = runKwb({"compile", (kRealDir / "constant_filter.kwb").string(), "--emit", "ptx"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(".entry"), std::string::npos);
    EXPECT_NE(r.out.find(".const .align 4 .b8 taps[20]"), std::string::npos) << r.out.substr(0, 2000);
    r = runKwb({"compile", (kRealDir / "constant_filter.kwb").string(), "--emit", "ptx", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_NE(j["ptx"].get<std::string>().find(".entry"), std::string::npos);
    r = runKwb({"compile", (kRealDir / "constant_filter.kwb").string(), "--json"});
    EXPECT_FALSE(json::parse(r.out).contains("ptx"));
}

TEST(RealKernels, CompileEmitCubinNeedsARealArchitecture)
{
    auto r
        = runKwb({"compile", (kRealDir / "constant_filter.kwb").string(), "--emit", "cubin", "--arch", "compute_75"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("no CUBIN"), std::string::npos) << r.err;
}

TEST(RealKernels, TheSignatureParserListsTheModuleGlobals)
{
    const auto globals = kw::parseModuleGlobals("#define TAPS 5\n"
                                                "__constant__ float taps[TAPS];\n"
                                                "__device__ unsigned int written;\n"
                                                "namespace ns { __constant__ float2 poly[2][3]; }\n"
                                                "__device__ float twice(float x) { __shared__ int s; return 2 * x; }\n"
                                                "__global__ void k() {}\n");
    ASSERT_EQ(globals.size(), 3u);
    EXPECT_EQ(globals[0].name, "taps");
    EXPECT_EQ(globals[0].space, "__constant__");
    EXPECT_EQ(globals[0].type, "float");
    EXPECT_EQ(globals[0].dims, "[TAPS]");
    EXPECT_EQ(globals[0].line, 2);
    EXPECT_EQ(globals[1].name, "written");
    EXPECT_EQ(globals[1].type, "unsigned int");
    EXPECT_EQ(globals[2].name, "poly");
    EXPECT_EQ(globals[2].dims, "[2][3]");
}
