// The CUDA headers the packages carry (build/packaging-stage, the same selection
// the .deb and the archive install): every sample, cuda_fp16.h and <cuda/std/...>
// compile with them alone, and a toolkit header they lack gets a note naming what
// to install. Needs NVRTC, as every compile test does.
#include "compile/Compiler.hpp"
#include "compile/ToolkitIncludeDir.hpp"
#include "compile/UnbundledHeaderNote.hpp"
#include "doc/DocumentReader.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kw;
namespace fs = std::filesystem;

#ifdef KW_STAGED_CUDA_INCLUDE

namespace {

const fs::path kStaged = KW_STAGED_CUDA_INCLUDE;

// Before the first compile of the process: the compiler reads the folder once.
class OnlyTheBundledHeaders : public ::testing::Environment {
public:
    void SetUp() override
    {
#ifdef _WIN32
        _putenv_s("KWB_CUDA_INCLUDE", kStaged.string().c_str());
#else
        ::setenv("KWB_CUDA_INCLUDE", kStaged.string().c_str(), 1);
#endif
    }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new OnlyTheBundledHeaders);

CompileResult compileSource(const std::string& source)
{
    CompileRequest req;
    req.source = source;
    return Compiler().compile(req);
}

} // namespace

TEST(BundledHeaders, AreTheOnesTheCompilerUses)
{
    ASSERT_TRUE(fs::is_regular_file(kStaged / "cuda_fp16.h")) << kStaged;
    EXPECT_EQ(toolkitIncludeDir(), fs::weakly_canonical(kStaged));
    EXPECT_FALSE(fs::exists(kStaged / "cuda_bf16.h")) << "not on NVIDIA's list of redistributable files";
    EXPECT_FALSE(fs::exists(kStaged / "cccl" / "cuda" / "pipeline")) << "under NVIDIA's own licence";
    EXPECT_FALSE(fs::exists(kStaged / "cccl" / "cuda" / "annotated_ptr")) << "under NVIDIA's own licence";
    EXPECT_FALSE(fs::exists(kStaged / "cccl" / "thrust"));
}

TEST(BundledHeaders, EverySampleCompiles)
{
    int count = 0;
    for (const auto& entry : fs::directory_iterator(KW_SAMPLES_DIR)) {
        if (entry.path().extension() != ".kwb")
            continue;
        const Document doc = DocumentReader::readFile(entry.path());
        CompileRequest req;
        req.source = doc.source;
        req.sourceName = doc.sourceFile.empty() ? doc.path.filename().string() : doc.sourceFile;
        req.baseDir = doc.baseDir();
        req.options = doc.options;
        req.nameExpressions = doc.kernelNames();
        const CompileResult r = Compiler().compile(req);
        EXPECT_TRUE(r.ok) << entry.path() << ":\n" << r.log;
        ++count;
    }
    EXPECT_GE(count, 13);
}

TEST(BundledHeaders, HalfPrecisionAndLibcuxxCompile)
{
    const CompileResult r
        = compileSource("#include <cuda_fp16.h>\n#include <cuda/std/cstdint>\n#include <cuda/std/limits>\n"
                        "#include <cuda/std/type_traits>\n#include <cuda/std/atomic>\n"
                        "__global__ void k(float* f, cuda::std::uint64_t* u)\n"
                        "{\n"
                        "    __half h = __float2half(f[0]);\n"
                        "    f[1] = __half2float(__hadd(h, h)) + cuda::std::numeric_limits<float>::epsilon();\n"
                        "    u[0] = cuda::std::is_same_v<int, int> ? 1 : 0;\n"
                        "    cuda::std::atomic_ref<cuda::std::uint64_t>(u[1]).fetch_add(1);\n"
                        "}\n");
    EXPECT_TRUE(r.ok) << r.log;
}

TEST(BundledHeaders, AMissingToolkitHeaderNamesWhatToInstall)
{
    const CompileResult r = compileSource("#include <cuda_bf16.h>\n__global__ void k(float* f) { f[0] = 1; }\n");
    ASSERT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    const Diagnostic& d = r.diagnostics.front();
    EXPECT_NE(d.message.find("cuda_bf16.h"), std::string::npos) << d.message;
    ASSERT_EQ(d.notes.size(), 1u) << d.message;
    EXPECT_NE(d.notes[0].find("cuda-cudart-dev-13-0"), std::string::npos) << d.notes[0];
    EXPECT_NE(d.notes[0].find("KWB_CUDA_INCLUDE"), std::string::npos) << d.notes[0];
}

#else
TEST(BundledHeaders, AreStagedByTheLinuxPackaging)
{
    GTEST_SKIP() << "packaging/linux stages the bundled headers; this build does not use it";
}
#endif

TEST(UnbundledHeaderNote, NamesOnlyToolkitHeadersThatAreMissing)
{
    EXPECT_EQ(unbundledToolkitHeader("cannot open source file \"cuda_bf16.h\""), "cuda_bf16.h");
    EXPECT_EQ(unbundledToolkitHeader("catastrophic error: cannot open source file \"cooperative_groups.h\""),
              "cooperative_groups.h");
    EXPECT_EQ(unbundledToolkitHeader("cannot open source file \"cub/block/block_reduce.cuh\""),
              "cub/block/block_reduce.cuh");
    EXPECT_EQ(unbundledToolkitHeader("cannot open source file \"helper.h\""), "") << "the user's own header";
    EXPECT_EQ(unbundledToolkitHeader("identifier \"cuda_bf16\" is undefined"), "");

    Diagnostic d;
    d.message = "cannot open source file \"curand_kernel.h\"";
    addUnbundledHeaderNote(d, {}); // no toolkit: the note says what to install
    ASSERT_EQ(d.notes.size(), 1u);
    EXPECT_NE(d.notes[0].find("libcurand-dev-13-0"), std::string::npos) << d.notes[0];
    Diagnostic other;
    other.message = "cannot open source file \"mine.cuh\"";
    addUnbundledHeaderNote(other, {});
    EXPECT_TRUE(other.notes.empty());

    // A whole toolkit that lacks the header: it is not the toolkit's, so no note.
    const fs::path toolkit = kw::test::freshDir("kw_test_unbundled", "toolkit");
    std::ofstream(toolkit / "cuda_runtime.h") << "";
    Diagnostic submodule;
    submodule.message = "cannot open source file \"cub/cub/cub.cuh\"";
    addUnbundledHeaderNote(submodule, {toolkit});
    EXPECT_TRUE(submodule.notes.empty());
    fs::create_directories(toolkit / "cub");
    std::ofstream(toolkit / "cub" / "cub.cuh") << "";
    Diagnostic real;
    real.message = "cannot open source file \"cub/cub.cuh\"";
    addUnbundledHeaderNote(real, {toolkit});
    EXPECT_EQ(real.notes.size(), 1u);
}
