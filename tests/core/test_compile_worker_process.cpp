// CompileWorkerProcess: NVRTC through `kwb-run compile-worker`; a worker that crashes,
// hangs or fails is reported, never taken down with it; and the worker's sandbox holds
// with no include gate in front of it: a confined compile cannot open a file outside the
// installed headers, however the source names it.
#include "compile/CompileWorkerProcess.hpp"
#include "compile/Compiler.hpp"
#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

#ifdef _WIN32
// On Windows NVRTC runs in the process: no worker child, no sandbox. A trusted source
// compiles there; a confined compile (an untrusted document) is refused, saying why.
TEST(CompileWorkerProcess, TheWorkerChildAndItsSandboxAreLinuxOnly)
{
    GTEST_SKIP() << "on Windows the compiler runs in the process, without a sandbox";
}

TEST(CompileWorkerProcess, OnWindowsAConfinedCompileIsRefusedSayingWhy)
{
    kw::NvrtcJob j;
    j.source = "__global__ void k() {}\n";
    j.sourceName = "live.cu";
    j.confined = true;
    try {
        kw::CompileWorkerProcess(kw::CompileWorkerProcess::besideThisProgram()).run(j);
        FAIL() << "a confined compile ran without a sandbox";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Untrusted) << e.what();
        EXPECT_NE(std::string(e.what()).find("its sandbox exists on Linux only"), std::string::npos) << e.what();
    }
}

TEST(CompileWorkerProcess, OnWindowsATrustedSourceCompilesInTheProcess)
{
    kw::NvrtcJob j;
    j.source = "__global__ void k(int* p) {\n  p[0] = undefined_name;\n}\n";
    j.sourceName = "live.cu";
    j.args = {"-arch=compute_75"};
    j.confined = false;
    const kw::CompileResult r = kw::CompileWorkerProcess(kw::CompileWorkerProcess::besideThisProgram()).run(j);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.log.find("undefined_name"), std::string::npos) << r.log;
}
#else

namespace {

kw::NvrtcJob job(const std::string& source, bool confined = true)
{
    kw::NvrtcJob j;
    j.source = source;
    j.sourceName = "live.cu";
    j.args = {"-arch=compute_75"};
    for (const auto& d : kw::Compiler::installedIncludeDirs())
        j.args.push_back("-I" + d.string());
    j.confined = confined;
    return j;
}

kw::CompileWorkerProcess realWorker() { return kw::CompileWorkerProcess(fs::path(KW_BIN_DIR) / "kwb-run"); }

// A stand-in worker: a shell script that behaves as told.
fs::path fakeWorker(const std::string& name, const std::string& body)
{
    const fs::path p = kw::test::freshDir("kw_worker_process", name) / "worker.sh";
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
    return p;
}

bool mentions(const kw::CompileResult& r, const std::string& text)
{
    for (const auto& d : r.diagnostics)
        if (d.message.find(text) != std::string::npos)
            return true;
    return r.log.find(text) != std::string::npos;
}

// A file outside every folder the compiler may read, whose text would show in the log
// (and fail the compile) if NVRTC read it.
fs::path secretFile(const std::string& name)
{
    const fs::path p = kw::test::freshDir("kw_worker_secret", name) / "secret.h";
    std::ofstream(p) << "#error SECRET-0xC0FFEE\n";
    return p;
}

TEST(CompileWorkerProcess, CompilesThroughTheWorker)
{
    const auto good = realWorker().run(job("__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }\n"));
    EXPECT_TRUE(good.ok) << good.log;
    EXPECT_NE(good.ptx.find(".entry"), std::string::npos);

    const auto bad = realWorker().run(job("__global__ void k(int* p) {\n  p[0] = undefined_name;\n}\n"));
    EXPECT_FALSE(bad.ok);
    EXPECT_TRUE(mentions(bad, "undefined_name")) << bad.log;
}

TEST(CompileWorkerProcess, AConfinedCompileStillReadsTheInstalledHeaders)
{
    const auto r = realWorker().run(job("#include <cuda_fp16.h>\n"
                                        "__global__ void h(__half* x) { x[0] = __float2half(1.0f); }\n"));
    EXPECT_TRUE(r.ok) << r.log;
}

TEST(CompileWorkerProcess, TheSandboxAloneKeepsAnAbsoluteIncludeOut)
{
    const fs::path secret = secretFile("absolute");
    const std::string source = "#include \"" + secret.string() + "\"\n__global__ void k() {}\n";
    // Unconfined (a trusted source), NVRTC reads it: the test would see a leak.
    const auto open = realWorker().run(job(source, false));
    EXPECT_TRUE(mentions(open, "SECRET-0xC0FFEE")) << open.log;
    const auto shut = realWorker().run(job(source, true));
    EXPECT_FALSE(shut.ok);
    EXPECT_FALSE(mentions(shut, "SECRET-0xC0FFEE")) << shut.log;
    EXPECT_TRUE(mentions(shut, "cannot open source file")) << shut.log;
}

TEST(CompileWorkerProcess, TheSandboxHoldsAgainstEveryDirectiveTrick)
{
    const fs::path secret = secretFile("tricks");
    const std::string path = secret.string();
    const std::vector<std::string> tricks = {
        "#inc\\\r\nlude \"" + path + "\"\n",                              // a splice with CR LF
        "?\?=include \"" + path + "\"\n",                                 // a trigraph '#'
        "%:include \"" + path + "\"\n",                                   // a digraph '#'
        "#define F(x) #x\n#define S(x) F(x)\n#include S(" + path + ")\n", // a computed name
        "#if __has_include(\"" + path + "\")\n#include \"" + path + "\"\n#endif\n",
        "#include \"../../../../../../../../../.." + path + "\"\n", // up and back down
    };
    for (const std::string& t : tricks) {
        kw::NvrtcJob j = job(t + "__global__ void k() {}\n");
        j.args.push_back("-std=c++14"); // trigraphs are honoured up to C++14
        const auto r = realWorker().run(j);
        EXPECT_FALSE(mentions(r, "SECRET-0xC0FFEE")) << t << "\n" << r.log;
        // Each trick does reach the file when nothing stops it.
        j.confined = false;
        EXPECT_TRUE(mentions(realWorker().run(j), "SECRET-0xC0FFEE")) << t;
    }
}

TEST(CompileWorkerProcess, TheSandboxKeepsTheSystemsFilesOut)
{
    const auto r = realWorker().run(job("#include \"/etc/passwd\"\n__global__ void k() {}\n"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(mentions(r, "cannot open source file")) << r.log;
    EXPECT_EQ(r.log.find("root:"), std::string::npos) << r.log;
}

TEST(CompileWorkerProcess, AWorkerThatCrashesIsADiagnostic)
{
    const auto r = kw::CompileWorkerProcess(fakeWorker("crash", "cat > /dev/null; kill -SEGV $$")).run(job("x"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(mentions(r, "the compiler crashed (signal 11)")) << r.log;
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "live.cu");
}

TEST(CompileWorkerProcess, AWorkerPastTheTimeLimitIsStoppedAndSaysSo)
{
    kw::NvrtcJob j = job("x");
    j.timeLimit = std::chrono::milliseconds(300);
    const auto r = kw::CompileWorkerProcess(fakeWorker("hang", "exec sleep 600")).run(j);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(mentions(r, "did not finish within 0.3 s")) << r.log;
}

TEST(CompileWorkerProcess, AFailureOfTheMachineryIsAnError)
{
    const kw::CompileWorkerProcess w(
        fakeWorker("fail", "cat > /dev/null; echo 'kwb-run: nvrtc error: NVRTC not found' >&2; exit 2"));
    try {
        w.run(job("x"));
        FAIL() << "no error";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Nvrtc);
        EXPECT_NE(std::string(e.what()).find("NVRTC not found"), std::string::npos) << e.what();
    }
}

TEST(CompileWorkerProcess, AWallThatCannotBeRaisedRefusesTheCompile)
{
    const kw::test::ScopedEnvironment noLandlock("KWB_TEST_NO_LANDLOCK", "1");
    try {
        realWorker().run(job("__global__ void k() {}\n"));
        FAIL() << "a confined compile ran without Landlock";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Untrusted) << e.what();
        EXPECT_NE(std::string(e.what()).find("sandbox could not be raised"), std::string::npos) << e.what();
    }
}

} // namespace
#endif
