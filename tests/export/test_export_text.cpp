// What the exported programs say, for the document features each must carry: templates
// by name expression, module variables by name, every kind of step, a loop's pass number
// and a condition read from the device, and checks whose mismatches print as kwb-run prints them.
#include "export/CppExporter.hpp"
#include "export/CupyExporter.hpp"
#include "export/ExportPlan.hpp"
#include "export/ExportTestSupport.hpp" // tests/export
#include "export/PycudaExporter.hpp"
#include "util/Error.hpp"

#include <nlohmann/json.hpp>

using namespace kwtest;
using namespace kw::exporting;

namespace {

std::string cupyText(const std::string& stem)
{
    const fs::path dir = kw::test::freshDir("kw_export", "text_" + stem);
    exportSample(stem, ExportTarget::Cupy, dir);
    return readText(dir / "run_cupy.py");
}

std::string has(const std::string& text, const std::string& what)
{
    return text.find(what) == std::string::npos ? "missing: " + what : std::string();
}

const char* kGlobalsDocument = R"({
  "format": "kernel-workbench", "version": 1,
  "source": "__constant__ float taps[4];\n__device__ unsigned int written;\n__global__ void k(float* out) { out[threadIdx.x] = taps[threadIdx.x]; atomicAdd(&written, 1u); }",
  "kernel": "k",
  "buffers": [
    {"name": "out", "dtype": "f32", "count": 4, "direction": "out"},
    {"name": "taps", "dtype": "f32", "count": 4, "init": {"kind": "arange", "start": 1}},
    {"name": "written", "dtype": "u32", "count": 1, "direction": "inout"}
  ],
  "globals_placeholder": 0,
  "args": [{"buffer": "out"}],
  "launch": {"grid": 1, "block": 4},
  "checks": [{"buffer": "out", "expect": "i + 2", "abs_tol": 0, "rel_tol": 0},
             {"buffer": "out", "aggregate": "sum", "expect": "99"},
             {"buffer": "written", "expect": "4"}]
})";

kw::Document globalsDocument()
{
    nlohmann::json d = nlohmann::json::parse(kGlobalsDocument);
    d.erase("globals_placeholder");
    d["globals"] = {d["buffers"][1], d["buffers"][2]};
    d["buffers"] = {d["buffers"][0]};
    return kw::DocumentReader::readString(d.dump());
}

} // namespace

TEST(ExportText, TemplatesAreCompiledAndFoundByTheirNameExpression)
{
    const fs::path dir = kw::test::freshDir("kw_export", "template");
    exportSample("template_scale", ExportTarget::Cupy, dir / "cupy");
    EXPECT_EQ(has(readText(dir / "cupy" / "run_cupy.py"), "KERNEL_NAMES = [\"scale<float,4>\"]"), "");
    exportSample("template_scale", ExportTarget::Pycuda, dir / "pycuda");
    const std::string py = readText(dir / "pycuda" / "run_pycuda.py");
    EXPECT_EQ(has(py, "\"scale<float,4>\":\"_Z5scaleIfLi4EEvPT_S0_i\""), "") << "the mangled name, from NVRTC";
    EXPECT_EQ(has(py, "kernels_pycuda.cu"), "");
    EXPECT_EQ(has(readText(dir / "pycuda" / "kernels_pycuda.cu"), "(void*)&scale<float,4>;"), "");
    exportSample("template_scale", ExportTarget::Cpp, dir / "cpp");
    const std::string cpp = readText(dir / "cpp" / "run.cpp");
    EXPECT_EQ(has(cpp, "kKernels = {\"scale<float,4>\"}"), "");
    EXPECT_EQ(has(cpp, "nvrtcAddNameExpression"), "");
}

TEST(ExportText, ModuleVariablesAreSetAndReadByName)
{
    const ExportPlan plan = ExportPlan::make(globalsDocument());
    const std::string py = CupyExporter::files(plan).front().text;
    EXPECT_EQ(has(py, "(\"taps\", \"<f4\", 4, (4, ), \"in\", True)"), "");
    EXPECT_EQ(has(py, "(\"written\", \"<u4\", 1, (1, ), \"inout\", True)"), "");
    EXPECT_EQ(has(py, "self.module.get_global(name)"), "");
    const std::string cpp = CppExporter::program(plan);
    EXPECT_EQ(has(cpp, "cuModuleGetGlobal"), "");
    EXPECT_EQ(has(cpp, "Buffer{\"taps\", \"f4\", \"<f4\", 4, {4}, \"in\", true"), "");
    EXPECT_EQ(has(cpp, "arange_bytes(\"f4\", 4, 1.0, 1.0)"), "") << "the taps are a formula";
}

TEST(ExportText, EveryKindOfStepIsWrittenInOrder)
{
    const std::string scan = cupyText("stream_compaction");
    const auto at = [&](const std::string& what) { return scan.find(what); };
    ASSERT_NE(at("run.launch(\"1\", \"flag\""), std::string::npos);
    ASSERT_NE(at("run.copy(\"2\", \"flags\", \"place\", 0, 0, 4096)"), std::string::npos);
    ASSERT_NE(at("for pass_d in range(12):"), std::string::npos);
    ASSERT_NE(at("run.fill(\"4\", \"place\""), std::string::npos);
    ASSERT_NE(at("run.launch(\"6\", \"scatter\""), std::string::npos);
    EXPECT_LT(at("run.launch(\"1\""), at("run.copy(\"2\""));
    EXPECT_LT(at("run.copy(\"2\""), at("run.launch(\"3.1\""));
    EXPECT_LT(at("run.launch(\"3.1\""), at("run.fill(\"4\""));
    EXPECT_LT(at("run.fill(\"4\""), at("run.launch(\"5.1\""));
    // The grid and the stride follow the pass number, as the document's expressions say.
    EXPECT_EQ(has(scan, "_shl(2.0, float(pass_d))"), "");
    // A step's checks after it.
    EXPECT_EQ(has(scan, "run.check(\"1\", ["), "");

    const std::string heat = cupyText("heat_diffusion");
    EXPECT_EQ(has(heat, "for pass_t in range(200):"), "");
    EXPECT_EQ(has(heat, "run.swap(\"1.2\", \"u\", \"v\")"), "");

    const std::string bfs = cupyText("bfs_grid");
    EXPECT_EQ(has(bfs, "for pass_level in range(1024):"), "") << "at most the limit";
    EXPECT_EQ(has(bfs, "if float(run.elem(\"changed\", 0.0) == 0.0) != 0:"), "") << "the condition, read on the device";
    EXPECT_EQ(has(bfs, "_scalar(\"<i4\", float(pass_level))"), "") << "the pass number as an argument";
    EXPECT_EQ(has(bfs, "STOPPED.append"), "");
}

// Failing checks print the same mismatches as kwb-run, down to the numbers' text.
TEST(ExportText, FailingChecksPrintTheSameMismatchesAsKwbRun)
{
    if (!haveCommand("c++"))
        GTEST_FAIL() << "no C++ compiler (c++): the build itself needs one";
    const fs::path dir = kw::test::freshDir("kw_export", "mismatch");
    nlohmann::json d = nlohmann::json::parse(kGlobalsDocument);
    d.erase("globals_placeholder");
    d["globals"] = {d["buffers"][1], d["buffers"][2]};
    d["buffers"] = {d["buffers"][0],
                    {{"name", "grid2"},
                     {"dtype", "i16"},
                     {"count", 12},
                     {"shape", {3, 4}},
                     {"init", {{"kind", "expression"}, {"expr", "x * 10 + y"}}}}};
    d["checks"].push_back({{"buffer", "grid2"}, {"expect", "x * 10 + y + (x == 3 ? 0.5 : 0) + out(0) - 1"}});
    d["checks"].push_back(
        {{"buffer", "grid2"}, {"aggregate", "max"}, {"of", "grid2 / 7"}, {"expect", "grid2_in(5) / 3"}});
    const fs::path doc = dir / "mismatch.kwb";
    std::ofstream(doc) << d.dump(2);
    kw::exporting::ExportRequest request;
    request.target = ExportTarget::Cpp;
    request.folder = dir / "program";
    DocumentExport::write(kw::DocumentReader::readFile(doc), request);
    const Shell build = buildCpp(dir / "program", dir / "run_cpp");
    ASSERT_EQ(build.code, 0) << build.output;
    const Shell run = shell(quoted(kwbRunPath()) + " run " + quoted(doc.string()) + " --device sim --out "
                            + quoted((dir / "sim").string()));
    ASSERT_EQ(run.code, 4) << "the document's checks fail on purpose: " << run.output;
    const Shell checks
        = shell("LD_LIBRARY_PATH=" + quoted(stubDriverFolder().string() + ":" + KW_CUDA_LIBRARY_DIR) + " "
                + quoted((dir / "run_cpp").string()) + " --dir " + quoted((dir / "program").string())
                + " --check-outputs " + quoted((dir / "sim").string()));
    EXPECT_EQ(checks.code, 4) << checks.output;
    EXPECT_NE(checks.output.find("FAILED"), std::string::npos) << checks.output;
    EXPECT_NE(checks.output.find("] got "), std::string::npos) << checks.output;
    EXPECT_EQ(checks.output, documentCheckLines(run.output));
}

// --cubin: the binary compiled on export travels in the program, which loads it instead of
// compiling, on a GPU of that architecture only; without a real architecture it is refused.
TEST(ExportText, ACubinCompiledOnExportIsEmbeddedForItsArchitecture)
{
    const kw::Document doc = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/template_scale.kwb");
    const fs::path dir = kw::test::freshDir("kw_export", "cubin");
    kw::exporting::ExportRequest request;
    request.target = ExportTarget::Cpp;
    request.folder = dir / "program";
    request.compileWorker = kwbRunPath();
    request.cubin = true;
    EXPECT_THROW(DocumentExport::write(doc, request), kw::Error) << "the sample names no arch";
    request.arch = "sm_90";
    DocumentExport::write(doc, request);
    const std::string cpp = readText(dir / "program" / "run.cpp");
    EXPECT_EQ(has(cpp, "int embeddedArch() { return 90; }"), "");
    EXPECT_EQ(has(cpp, "{\"scale<float,4>\", \"_Z5scaleIfLi4EEvPT_S0_i\"}"), "");
    EXPECT_EQ(has(cpp, "static const Bytes cubin = {\n        127, 69, 76, 70"), "") << "an ELF image";
    if (haveCommand("c++")) {
        const Shell build = buildCpp(dir / "program", dir / "run_cpp");
        EXPECT_EQ(build.code, 0) << build.output;
    }
    request.target = ExportTarget::Cupy;
    EXPECT_THROW(DocumentExport::write(doc, request), kw::Error) << "--cubin is for C++";
}
