// Exported programs reproduce the run: for every sample (the documents of several launches
// too), the CuPy, PyCUDA and C++ programs write out/NAME.npy files equal byte for byte (dtype,
// shape and data) to those of `kwb-run run --device cuda:0 --out`, and print the same checks.
// A target whose library is missing (import cupy / import pycuda fails) is skipped, saying so.
// Run alone: ctest -R GpuExport (label gpu), or build/tests/gpu_test_gpu_export.
#include "data/NpyFile.hpp"
#include "export/ExportTestSupport.hpp" // tests/export
#include "gpu/GpuTestSupport.hpp"

using namespace kwtest;
using kw::exporting::ExportTarget;

namespace {

// The top-level NAME.npy files of a run's folder.
std::vector<std::string> npyFiles(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".npy")
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

void expectSameOutputs(const fs::path& want, const fs::path& got)
{
    const auto names = npyFiles(want);
    EXPECT_EQ(npyFiles(got), names);
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        const kw::NdArray a = kw::NpyFile::read(want / name);
        const kw::NdArray b = kw::NpyFile::read(got / name);
        EXPECT_EQ(a.data.dtype(), b.data.dtype());
        EXPECT_EQ(a.shape, b.shape);
        EXPECT_TRUE(a.data.bytes() == b.data.bytes()) << "the data differ";
    }
}

// Exports every sample for `target`, runs the program with `command` (given the folder
// and the output folder) and compares it with kwb-run's run of the sample.
template <typename Command> void compareEverySample(ExportTarget target, Command command)
{
    for (const auto& stem : kw::test::sampleStems()) {
        SCOPED_TRACE(stem);
        const fs::path dir
            = kw::test::freshDir("kw_gpu_export", std::string(kw::exporting::toString(target)) + "_" + stem);
        const Shell run = shell(quoted(kwbRunPath()) + " run " + quoted(std::string(KW_SAMPLES_DIR) + "/" + stem + ".kwb")
                                + " --device cuda:0 --out " + quoted((dir / "kwb").string()));
        ASSERT_EQ(run.code, 0) << run.output;
        exportSample(stem, target, dir / "program");
        const Shell exported = command(dir / "program", dir / "out");
        EXPECT_EQ(exported.code, 0) << exported.output;
        EXPECT_EQ(documentCheckLines(exported.output), documentCheckLines(run.output)) << exported.output;
        expectSameOutputs(dir / "kwb", dir / "out");
    }
}

std::string pythonModuleMissing(const std::string& module)
{
    const Shell r = shell("python3 -c " + quoted("import " + module));
    return r.code == 0 ? std::string() : "import " + module + " fails on this machine: " + r.output;
}

} // namespace

TEST(GpuExport, CupyProgramsWriteWhatKwbRunWrites)
{
    KW_REQUIRE_GPU();
    if (const std::string why = pythonModuleMissing("cupy"); !why.empty())
        GTEST_SKIP() << why;
    compareEverySample(ExportTarget::Cupy, [](const fs::path& program, const fs::path& out) {
        return shell("python3 " + quoted((program / "run_cupy.py").string()) + " --out " + quoted(out.string()));
    });
}

TEST(GpuExport, PycudaProgramsWriteWhatKwbRunWrites)
{
    KW_REQUIRE_GPU();
    if (const std::string why = pythonModuleMissing("pycuda.driver"); !why.empty())
        GTEST_SKIP() << why;
    compareEverySample(ExportTarget::Pycuda, [](const fs::path& program, const fs::path& out) {
        return shell("python3 " + quoted((program / "run_pycuda.py").string()) + " --out " + quoted(out.string()));
    });
}

TEST(GpuExport, CppProgramsWriteWhatKwbRunWrites)
{
    KW_REQUIRE_GPU();
    if (!haveCommand("c++"))
        GTEST_SKIP() << "no C++ compiler (c++) on this machine";
    compareEverySample(ExportTarget::Cpp, [](const fs::path& program, const fs::path& out) {
        const Shell build = buildCpp(program, program / "run_cpp");
        if (build.code != 0)
            return build;
        return shell("LD_LIBRARY_PATH=" + quoted(KW_CUDA_LIBRARY_DIR) + " " + quoted((program / "run_cpp").string())
                     + " --dir " + quoted(program.string()) + " --out " + quoted(out.string()));
    });
}
