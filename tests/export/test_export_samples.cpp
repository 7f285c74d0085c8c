// Every sample exports to every target, and what is written holds: the Python programs
// compile, pass pyflakes and call what they must; the C++ program builds with the CUDA
// Toolkit's headers under -Wall -Wextra -Werror (no GPU needed); and its checks, run on
// the outputs the simulator wrote (kwb-run run --device sim --out), print exactly the
// lines kwb-run printed.
#include "export/CppExporter.hpp"
#include "export/CupyExporter.hpp"
#include "export/ExportTestSupport.hpp" // tests/export
#include "export/PycudaExporter.hpp"
#include "support/Samples.hpp"

#include <algorithm>

using namespace kwtest;
using kw::exporting::ExportTarget;

namespace {

bool wrote(const std::vector<std::string>& files, const std::string& name)
{
    return std::find(files.begin(), files.end(), name) != files.end();
}

void expectPythonHolds(const fs::path& script, const std::vector<std::string>& calls)
{
    const Shell compiled = shell("python3 -m py_compile " + quoted(script.string()));
    EXPECT_EQ(compiled.code, 0) << compiled.output;
    if (haveCommand("pyflakes3")) {
        const Shell flakes = shell("pyflakes3 " + quoted(script.string()));
        EXPECT_EQ(flakes.code, 0) << flakes.output;
    } else {
        ADD_FAILURE() << "pyflakes3 is not installed (apt-get install pyflakes3): the programs are not linted";
    }
    std::string args;
    for (const auto& c : calls)
        args += " " + quoted(c);
    const Shell ast = shell("python3 " + quoted(std::string(KW_EXPORT_TEST_DIR) + "/python_calls.py") + " "
                            + quoted(script.string()) + args);
    EXPECT_EQ(ast.code, 0) << ast.output;
}

} // namespace

TEST(ExportSamples, EverySampleExportsForCupyAndThePythonHolds)
{
    if (!haveCommand("python3"))
        GTEST_FAIL() << "python3 is missing: scripts/install-deps.sh installs it";
    for (const auto& stem : kw::test::sampleStems()) {
        SCOPED_TRACE(stem);
        const fs::path dir = kw::test::freshDir("kw_export", "cupy_" + stem);
        const auto files = exportSample(stem, ExportTarget::Cupy, dir);
        EXPECT_TRUE(wrote(files, "run_cupy.py") && wrote(files, "README.md"));
        EXPECT_TRUE(wrote(files, "kwb_headers/kwb_nvcc_environment.h"));
        expectPythonHolds(
            dir / "run_cupy.py",
            {"cp.RawModule", ".get_function", "cuda.alloc", "np.save", "run_check", "check_lines", "print"});
        const std::string text = readText(dir / "run_cupy.py");
        EXPECT_NE(text.find("-lineinfo"), std::string::npos);
        EXPECT_NE(text.find("\"--pre-include=\" + os.path.join(HERE, \"kwb_headers\", \"kwb_nvcc_environment.h\")"),
                  std::string::npos);
        const bool steps = kw::test::sampleDocument(stem + ".kwb").contains("steps");
        EXPECT_EQ(text.find("timing_stats(times)") != std::string::npos, !steps)
            << "one launch is timed over warm-up and repeats; a document of steps runs once";
    }
}

TEST(ExportSamples, EverySampleExportsForPycudaAndThePythonHolds)
{
    if (!haveCommand("python3"))
        GTEST_FAIL() << "python3 is missing: scripts/install-deps.sh installs it";
    for (const auto& stem : kw::test::sampleStems()) {
        SCOPED_TRACE(stem);
        const fs::path dir = kw::test::freshDir("kw_export", "pycuda_" + stem);
        const auto files = exportSample(stem, ExportTarget::Pycuda, dir);
        EXPECT_TRUE(wrote(files, "run_pycuda.py") && wrote(files, "README.md"));
        EXPECT_FALSE(wrote(files, "kwb_headers/kwb_nvcc_environment.h")) << "nvcc has its own headers";
        expectPythonHolds(
            dir / "run_pycuda.py",
            {"SourceModule", ".get_function", "drv.mem_alloc", "drv.memcpy_htod", "np.save", "run_check"});
    }
}

// Every sample's C++ program builds without warnings; and its checks, translated to C++,
// print what kwb-run prints for the same outputs: run on the simulator, the program reads
// its .npy files (--check-outputs) and needs no GPU.
TEST(ExportSamples, EverySampleBuildsForCppAndItsChecksPrintWhatKwbRunPrints)
{
    if (!haveCommand("c++"))
        GTEST_FAIL() << "no C++ compiler (c++): the build itself needs one";
    // The simulator's slowest samples are compared on the GPU only.
    const std::vector<std::string> slow = {"mandelbrot", "heat_diffusion", "bfs_grid"};
    int compared = 0;
    for (const auto& stem : kw::test::sampleStems()) {
        SCOPED_TRACE(stem);
        const fs::path dir = kw::test::freshDir("kw_export", "cpp_" + stem);
        const auto files = exportSample(stem, ExportTarget::Cpp, dir / "program");
        EXPECT_TRUE(wrote(files, "run.cpp") && wrote(files, "CMakeLists.txt") && wrote(files, "README.md"));
        EXPECT_NE(readText(dir / "program" / "CMakeLists.txt").find("find_package(CUDAToolkit"), std::string::npos);
        const Shell build = buildCpp(dir / "program", dir / "run_cpp");
        ASSERT_EQ(build.code, 0) << build.output;
        if (std::find(slow.begin(), slow.end(), stem) != slow.end())
            continue;
        const Shell run
            = shell(quoted(kwbRunPath()) + " run " + quoted(std::string(KW_SAMPLES_DIR) + "/" + stem + ".kwb")
                    + " --device sim --out " + quoted((dir / "sim").string()));
        ASSERT_TRUE(run.code == 0 || run.code == 4) << run.output;
        const Shell checks
            = shell("LD_LIBRARY_PATH=" + quoted(stubDriverFolder().string() + ":" + KW_CUDA_LIBRARY_DIR) + " "
                    + quoted((dir / "run_cpp").string()) + " --dir " + quoted((dir / "program").string())
                    + " --check-outputs " + quoted((dir / "sim").string()));
        EXPECT_EQ(checks.code, run.code) << checks.output;
        EXPECT_EQ(checks.output, documentCheckLines(run.output));
        ++compared;
    }
    EXPECT_GE(compared, 10);
}

// The same for Python, where NumPy is installed (the GPU machine has it).
TEST(ExportSamples, ThePythonChecksPrintWhatKwbRunPrintsOnTheSameOutputs)
{
    // The first python3 that has NumPy (a virtual environment's may lack it where the system's has it).
    std::string python;
    for (const std::string candidate : {"python3", "/usr/bin/python3"})
        if (python.empty() && shell(kwtest::quoted(candidate) + " -c 'import numpy'").code == 0)
            python = candidate;
    if (python.empty())
        GTEST_FAIL() << "NumPy is missing for python3: scripts/install-deps.sh installs python3-numpy";
    for (const std::string stem :
         {"add_vectors", "matmul", "saxpy", "histogram", "reduction_two_pass", "scan_blelloch", "stream_compaction"}) {
        SCOPED_TRACE(stem);
        const fs::path dir = kw::test::freshDir("kw_export", "pychecks_" + stem);
        exportSample(stem, ExportTarget::Cupy, dir / "program");
        const Shell run
            = shell(quoted(kwbRunPath()) + " run " + quoted(std::string(KW_SAMPLES_DIR) + "/" + stem + ".kwb")
                    + " --device sim --out " + quoted((dir / "sim").string()));
        ASSERT_TRUE(run.code == 0 || run.code == 4) << run.output;
        // The check needs no GPU: cupy is only imported, so a stand-in module is enough.
        fs::create_directories(dir / "fake");
        std::ofstream(dir / "fake" / "cupy.py") << "";
        const Shell checks = shell("PYTHONPATH=" + quoted((dir / "fake").string()) + " " + kwtest::quoted(python) + " "
                                   + quoted((dir / "program" / "run_cupy.py").string()) + " --check-outputs "
                                   + quoted((dir / "sim").string()));
        EXPECT_EQ(checks.code, run.code) << checks.output;
        EXPECT_EQ(checks.output, documentCheckLines(run.output));
    }
}

// The generated CMakeLists.txt finds the toolkit and builds the program without warnings.
TEST(ExportSamples, TheCMakeProjectBuilds)
{
    if (!haveCommand("cmake") || !haveCommand("c++"))
        GTEST_FAIL() << "cmake or a C++ compiler is missing: the build itself needs both";
    const fs::path dir = kw::test::freshDir("kw_export", "cmake");
    exportSample("reduction_two_pass", ExportTarget::Cpp, dir / "program");
    const Shell configure = shell("cmake -S " + quoted((dir / "program").string()) + " -B "
                                  + quoted((dir / "build").string()) + " -DCMAKE_CXX_FLAGS=-Werror -DCUDAToolkit_ROOT="
                                  + quoted(fs::path(KW_CUDA_INCLUDE_DIR).parent_path().string()));
    ASSERT_EQ(configure.code, 0) << configure.output;
    const Shell build = shell("cmake --build " + quoted((dir / "build").string()));
    EXPECT_EQ(build.code, 0) << build.output;
    EXPECT_TRUE(fs::exists(dir / "build" / "run_cpp"));
}
