// What `kwb-run compile` hands to NVRTC (run/CompileInput): a .cu file as it is or a
// document's source and options, with the command line's defines, include folders,
// trust and architecture.
#include "run/CompileInput.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using kw::CompileCommandOptions;
using kw::CompileInput;

namespace {

// A machine with one GPU of arch sm_90.
const kw::ArchChoice::Gpus kOneGpu{[] { return true; }, [] { return std::string("sm_90"); }};
const kw::ArchChoice::Gpus kNoGpu{[] { return false; }, [] { return std::string("never asked"); }};

fs::path write(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary) << text;
    return p;
}

const char* kDocument = R"JSON({
  "format": "kernel-workbench", "version": 1,
  "source": "__global__ void k(int* p) { p[threadIdx.x] = N; }\n",
  "kernel": "k",
  "variables": [["n", "4"]],
  "options": {"defines": {"N": "n * 2"}},
  "buffers": [{"name": "p", "dtype": "i32", "count": "n", "init": {"kind": "zeros"}, "direction": "out"}],
  "args": [{"name": "p", "buffer": "p"}],
  "launch": {"grid": [1, 1, 1], "block": ["n", 1, 1]}
})JSON";

} // namespace

TEST(CompileInput, ACuFileIsCompiledAsItIsBesideItsFolder)
{
    const fs::path dir = kw::test::freshDir("kw_test_compile_input", "cu");
    CompileCommandOptions o;
    o.file = write(dir / "scale.cu", "__global__ void scale() {}\n").string();
    const kw::CompileRequest r = CompileInput::request(o, kNoGpu);
    EXPECT_EQ(r.source, "__global__ void scale() {}\n");
    EXPECT_EQ(r.sourceName, "scale.cu");
    EXPECT_EQ(r.baseDir, fs::absolute(dir));
    EXPECT_EQ(r.trust, kw::Trust::Untrusted);
    EXPECT_TRUE(r.options.defines.empty());
    EXPECT_EQ(r.options.arch, "") << "PTX for the default virtual architecture without a GPU";
}

TEST(CompileInput, DefinesIncludesAndTrustComeFromTheCommandLine)
{
    const fs::path dir = kw::test::freshDir("kw_test_compile_input", "options");
    CompileCommandOptions o;
    o.file = write(dir / "k.cu", "__global__ void k() {}\n").string();
    o.defines = {"A=1", "B", "C=x=y"};
    o.includes = {dir.string()};
    o.trust = true;
    const kw::CompileRequest r = CompileInput::request(o, kNoGpu);
    const std::vector<std::pair<std::string, std::string>> defines{{"A", "1"}, {"B", ""}, {"C", "x=y"}};
    EXPECT_EQ(r.options.defines, defines);
    ASSERT_EQ(r.userIncludeDirs.size(), 1u);
    EXPECT_EQ(r.userIncludeDirs[0], fs::absolute(dir));
    EXPECT_EQ(r.trust, kw::Trust::Trusted);
}

TEST(CompileInput, TheArchIsTheOneAskedForElseTheFirstGpus)
{
    const fs::path dir = kw::test::freshDir("kw_test_compile_input", "arch");
    CompileCommandOptions o;
    o.file = write(dir / "k.cu", "__global__ void k() {}\n").string();
    EXPECT_EQ(CompileInput::request(o, kOneGpu).options.arch, "sm_90");
    o.arch = "compute_80";
    EXPECT_EQ(CompileInput::request(o, kOneGpu).options.arch, "compute_80");
}

TEST(CompileInput, ADocumentGivesItsSourceKernelAndEvaluatedDefines)
{
    const fs::path dir = kw::test::freshDir("kw_test_compile_input", "doc");
    CompileCommandOptions o;
    o.file = write(dir / "doc.kwb", kDocument).string();
    o.defines = {"EXTRA=1"};
    const kw::CompileRequest r = CompileInput::request(o, kNoGpu);
    EXPECT_EQ(r.source, "__global__ void k(int* p) { p[threadIdx.x] = N; }\n");
    EXPECT_EQ(r.sourceName, "doc.kwb") << "a document without source_file names itself";
    EXPECT_EQ(r.nameExpressions, std::vector<std::string>{"k"});
    const std::vector<std::pair<std::string, std::string>> defines{{"N", "8"}, {"EXTRA", "1"}};
    EXPECT_EQ(r.options.defines, defines);
    EXPECT_EQ(r.trust, kw::Trust::Untrusted);
}

TEST(CompileInput, AFileThatCannotBeReadIsAnIoError)
{
    CompileCommandOptions o;
    o.file = "/nonexistent/kernel.cu";
    try {
        CompileInput::request(o, kNoGpu);
        FAIL() << "no error";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Io);
        EXPECT_NE(std::string(e.what()).find("/nonexistent/kernel.cu"), std::string::npos) << e.what();
    }
}
