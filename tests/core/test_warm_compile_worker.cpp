// The compile worker kept up between compiles (WarmCompileWorker, Compiler::keepWorkerWarm):
// NVRTC's precompiled headers are made once and used by every recompile after, the code
// is the same as a plain compile's, a changed header of the same name is never served from
// an old precompiled header, and a worker that hangs or dies is replaced.
#include "compile/Compiler.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/PchLog.hpp"
#include "compile/WarmCompileWorker.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

// A kernel behind two CUDA headers whose parsing is most of its compile.
std::string headerHeavy(int scale)
{
    return "#include <cuda_fp16.h>\n#include <cuda/std/complex>\n"
           "__global__ void k(const __half* a, float* b, int n)\n{\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    cuda::std::complex<float> c(1.0f, 2.0f);\n"
           "    if (i < n) b[i] = __half2float(a[i]) * c.imag() * "
        + std::to_string(scale) + ".0f;\n}\n";
}

kw::CompileRequest request(const std::string& source)
{
    kw::CompileRequest r;
    r.source = source;
    r.sourceName = "live.cu";
    r.options.arch = "compute_75";
    return r;
}

std::unique_ptr<kw::Compiler> warmCompiler()
{
    auto c = std::make_unique<kw::Compiler>(); // no cache: every compile reaches NVRTC
    c->setWorker(fs::path(KW_BIN_DIR) / "kwb-run");
    c->keepWorkerWarm(true);
    return c;
}

class WarmCompileWorkerTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!kw::CompilerSandbox::available())
            GTEST_SKIP() << "this machine cannot confine the compiler: " << kw::CompilerSandbox::unavailableReason();
    }
    kw::test::ScopedEnvironment cache_{"KWB_CACHE_DIR", kw::test::freshDir("kw_warm", "cache").string()};
};

} // namespace

TEST(PchLog, TakesNvrtcsLinesOutAndSaysWhatTheySaid)
{
    std::string log = "\"live.cu\": creating precompiled header file \"/x/live_0.pch\"\n\n"
                      "live.cu(3): warning #177-D: variable \"v\" was declared but never referenced\n";
    EXPECT_EQ(kw::PchLog::take(log), "created");
    EXPECT_EQ(log, "live.cu(3): warning #177-D: variable \"v\" was declared but never referenced\n");
    std::string used = "\"live.cu\": using precompiled header file \"/x/live_0.pch\"\n\n";
    EXPECT_EQ(kw::PchLog::take(used), "used");
    EXPECT_EQ(used, "");
    std::string none = "live.cu(1): error: expected a \";\"\n";
    EXPECT_EQ(kw::PchLog::take(none), "");
    EXPECT_EQ(none, "live.cu(1): error: expected a \";\"\n");
}

TEST_F(WarmCompileWorkerTest, TheSecondCompileUsesThePrecompiledHeaderAndGivesThePlainCompilesCode)
{
    const auto warm = warmCompiler();
    const kw::CompileResult first = warm->compile(request(headerHeavy(2)));
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_EQ(first.pch, "created");
    const kw::CompileResult second = warm->compile(request(headerHeavy(3)));
    ASSERT_TRUE(second.ok) << second.log;
    EXPECT_EQ(second.pch, "used");
    EXPECT_TRUE(second.diagnostics.empty()) << second.log; // NVRTC's PCH lines are not diagnostics

    kw::Compiler plain;
    plain.setWorker(fs::path(KW_BIN_DIR) / "kwb-run");
    const kw::CompileResult reference = plain.compile(request(headerHeavy(3)));
    ASSERT_TRUE(reference.ok) << reference.log;
    EXPECT_EQ(reference.pch, "");
    EXPECT_EQ(second.ptx, reference.ptx);
    EXPECT_NE(first.ptx, second.ptx); // the edit after the headers is compiled, not reused
}

TEST_F(WarmCompileWorkerTest, AHeaderOfTheSameNameWithOtherTextIsNeverServedFromTheOldOne)
{
    const fs::path dir = kw::test::freshDir("kw_warm", "own_header");
    const auto warm = warmCompiler();
    const auto compileWith = [&](const std::string& constant) {
        std::ofstream(dir / "scale.h") << "#include <cuda_fp16.h>\nconstexpr float kScale = " << constant << "f;\n";
        kw::CompileRequest r = request("#include \"scale.h\"\n__global__ void k(float* b) { b[0] = kScale; }\n");
        r.baseDir = dir;
        return warm->compile(r);
    };
    const kw::CompileResult a = compileWith("1.5");
    const kw::CompileResult b = compileWith("2.5");
    ASSERT_TRUE(a.ok) << a.log;
    ASSERT_TRUE(b.ok) << b.log;
    EXPECT_NE(a.ptx.find("0f3FC00000"), std::string::npos) << a.ptx; // 1.5f
    EXPECT_NE(b.ptx.find("0f40200000"), std::string::npos) << b.ptx; // 2.5f
    EXPECT_EQ(b.ptx.find("0f3FC00000"), std::string::npos);
}

TEST_F(WarmCompileWorkerTest, AWorkerPastItsTimeLimitIsStoppedAndTheNextCompileGetsAFreshOne)
{
    kw::WarmCompileWorker worker(fs::path(KW_BIN_DIR) / "kwb-run", true,
                                 kw::test::freshDir("kw_warm", "limit") / "pch");
    kw::NvrtcJob slow;
    slow.source = headerHeavy(1);
    slow.sourceName = "live.cu";
    slow.args = {"-arch=compute_75"};
    for (const auto& d : kw::Compiler::installedIncludeDirs())
        slow.args.push_back("-I" + d.string());
    slow.timeLimit = std::chrono::milliseconds(50);
    const kw::CompileResult stopped = worker.run(slow, "key");
    EXPECT_FALSE(stopped.ok);
    ASSERT_FALSE(stopped.diagnostics.empty());
    EXPECT_NE(stopped.diagnostics[0].message.find("did not finish within 0.05 s"), std::string::npos);
    EXPECT_FALSE(worker.running());

    kw::NvrtcJob quick = slow;
    quick.source = "__global__ void k(int* p) { *p = 7; }\n";
    quick.timeLimit = std::chrono::milliseconds(60000);
    const kw::CompileResult again = worker.run(quick, "key");
    EXPECT_TRUE(again.ok) << again.log;
    EXPECT_TRUE(worker.running());
}

TEST_F(WarmCompileWorkerTest, AConfinedWarmWorkerStillCannotReadOutsideTheInstalledHeaders)
{
    const fs::path secret = kw::test::freshDir("kw_warm", "secret") / "secret.h";
    std::ofstream(secret) << "#error SECRET-0xC0FFEE\n";
    kw::WarmCompileWorker worker(fs::path(KW_BIN_DIR) / "kwb-run", true,
                                 kw::test::freshDir("kw_warm", "confined") / "pch");
    kw::NvrtcJob j;
    j.source = "#include \"" + secret.string() + "\"\n__global__ void k() {}\n";
    j.sourceName = "live.cu";
    j.args = {"-arch=compute_75"};
    for (int pass = 0; pass < 2; ++pass) { // the walls stand for every job, not only the first
        const kw::CompileResult r = worker.run(j, "key");
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.log.find("SECRET-0xC0FFEE"), std::string::npos) << r.log;
        EXPECT_NE(r.log.find("cannot open source file"), std::string::npos) << r.log;
    }
}

TEST_F(WarmCompileWorkerTest, EverySampleCompilesToTheSamePtxWithPrecompiledHeadersAsWithout)
{
    const auto warm = warmCompiler();
    kw::Compiler plain;
    plain.setWorker(fs::path(KW_BIN_DIR) / "kwb-run");
    int samples = 0, used = 0;
    for (const auto& entry : fs::directory_iterator(KW_SAMPLES_DIR)) {
        if (entry.path().extension() != ".kwb")
            continue;
        const kw::Document doc = kw::DocumentReader::readFile(entry.path());
        const kw::CompileRequest req = kw::RunEngine::compileRequest(doc);
        warm->compile(req); // makes the precompiled header, where there is one to make
        const kw::CompileResult again = warm->compile(req);
        const kw::CompileResult reference = plain.compile(req);
        ASSERT_TRUE(reference.ok) << entry.path() << "\n" << reference.log;
        ASSERT_TRUE(again.ok) << entry.path() << "\n" << again.log;
        EXPECT_EQ(again.ptx, reference.ptx) << entry.path();
        EXPECT_EQ(again.diagnostics.size(), reference.diagnostics.size()) << entry.path() << "\n" << again.log;
        ++samples;
        used += again.pch == "used";
    }
    EXPECT_GE(samples, 18);
    EXPECT_GE(used, 1) << "no sample's recompile used a precompiled header";
}
