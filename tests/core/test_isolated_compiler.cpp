// IsolatedCompiler: compiles through `kwb-run compile-worker`; a worker that crashes,
// hangs or fails is reported, never taken down with it.
#include "compile/IsolatedCompiler.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

kw::CompileRequest request(const std::string& source)
{
    kw::CompileRequest r;
    r.source = source;
    r.sourceName = "live.cu";
    return r;
}

// A stand-in worker: a shell script that behaves as told.
fs::path fakeWorker(const std::string& name, const std::string& body)
{
    const fs::path p = kw::test::freshDir("kw_isolated", name) / "worker.sh";
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
    return p;
}

bool mentions(const kw::CompileResult& r, const std::string& text)
{
    for (const auto& d : r.diagnostics)
        if (d.message.find(text) != std::string::npos)
            return true;
    return false;
}

TEST(IsolatedCompiler, CompilesThroughTheWorkerLikeInProcess)
{
    kw::IsolatedCompiler c(fs::path(KW_BIN_DIR) / "kwb-run", std::chrono::seconds(120));
    const auto good = c.compile(request("__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }\n"));
    EXPECT_TRUE(good.ok) << good.log;
    ASSERT_EQ(good.kernels.size(), 1u);
    EXPECT_EQ(good.kernels[0].name, "scale");
    EXPECT_FALSE(good.ptx.empty());

    const auto bad = c.compile(request("__global__ void k(int* p) {\n  p[0] = undefined_name;\n}\n"));
    EXPECT_FALSE(bad.ok);
    ASSERT_FALSE(bad.diagnostics.empty());
    EXPECT_EQ(bad.diagnostics[0].line, 2);
    EXPECT_TRUE(mentions(bad, "undefined_name"));
}

TEST(IsolatedCompiler, AWorkerThatCrashesIsADiagnostic)
{
    kw::IsolatedCompiler c(fakeWorker("crash", "cat > /dev/null; kill -SEGV $$"), std::chrono::seconds(60));
    const auto r = c.compile(request("__global__ void k() {}\n"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(mentions(r, "the compiler crashed (signal 11)")) << r.log;
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "live.cu");
}

TEST(IsolatedCompiler, AWorkerPastTheTimeLimitIsStoppedAndSaysSo)
{
    kw::IsolatedCompiler c(fakeWorker("hang", "exec sleep 600"), std::chrono::milliseconds(300));
    const auto r = c.compile(request("__global__ void k() {}\n"));
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(mentions(r, "did not finish within 0.3 s")) << r.log;
}

TEST(IsolatedCompiler, AFailureOfTheMachineryIsAnError)
{
    kw::IsolatedCompiler c(fakeWorker("fail", "cat > /dev/null; echo 'kwb-run: nvrtc error: NVRTC not found' >&2; exit 2"),
                           std::chrono::seconds(60));
    try {
        c.compile(request("__global__ void k() {}\n"));
        FAIL() << "no error";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Nvrtc);
        EXPECT_NE(std::string(e.what()).find("NVRTC not found"), std::string::npos) << e.what();
    }
}

} // namespace
