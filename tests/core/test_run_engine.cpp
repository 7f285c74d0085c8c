// RunEngine with a fake backend: real NVRTC compile (PTX only, no GPU), real
// document evaluation, and a backend that computes on the host what the kernel would.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "launch/TimingStats.hpp"
#include "run/ArgumentCheck.hpp"
#include "run/RunEngine.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

using namespace kw;

namespace {

class FakeBackend : public Backend {
public:
    std::function<void(std::vector<BufferArg>&, const std::vector<LaunchArg>&)> kernel;
    std::string printfText;
    int launches = 0;
    KernelImage lastImage;
    LaunchConfig lastConfig;
    std::vector<LaunchArg> lastArgs;

    DeviceInfo device() const override
    {
        DeviceInfo d;
        d.id = "fake";
        d.name = "fake backend";
        return d;
    }
    std::string compileArch() const override { return "compute_75"; }
    LaunchReport launch(const KernelImage& image, std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override
    {
        ++launches;
        lastImage = image;
        lastConfig = config;
        lastArgs = args;
        if (kernel)
            kernel(buffers, args);
        LaunchReport r;
        r.printfOutput = printfText;
        r.timings.repeatMs = {2.0, 1.0, 3.0};
        r.timings.minMs = 1.0;
        r.timings.medianMs = 2.0;
        r.timings.meanMs = 2.0;
        return r;
    }
};

const char* kAddDocument = R"JSON({
  "format": "kernel-workbench", "version": 1,
  "source": "__global__ void add_vectors(const float *a, const float *b, float *c, int n)\n{ int i = threadIdx.x + blockIdx.x * blockDim.x; if (i < n) c[i] = a[i] + b[i]; }\n",
  "kernel": "add_vectors",
  "variables": [["n", "100"]],
  "buffers": [
    {"name": "a", "dtype": "f32", "count": "n", "init": {"kind": "arange"}, "direction": "in"},
    {"name": "b", "dtype": "f32", "count": "n", "init": {"kind": "fill", "value": "10"}, "direction": "in"},
    {"name": "c", "dtype": "f32", "count": "n", "init": {"kind": "zeros"}, "direction": "out"}
  ],
  "args": [{"name": "a", "buffer": "a"}, {"name": "b", "buffer": "b"}, {"name": "c", "buffer": "c"},
           {"name": "n", "type": "ARGTYPE", "value": "n"}],
  "launch": {"grid": ["cdiv(n, 64)"], "block": [64]},
  "run": {"warmup": 1, "repeats": 3},
  "checks": [{"buffer": "c", "expect": "a + b"}]
})JSON";

std::string addDocumentText(const std::string& argType)
{
    std::string text = kAddDocument;
    text.replace(text.find("ARGTYPE"), 7, argType);
    return text;
}

Document addDocument() { return DocumentReader::readString(addDocumentText("i32")); }

void hostAdd(std::vector<BufferArg>& buffers, const std::vector<LaunchArg>& args)
{
    std::int32_t n = 0;
    std::memcpy(&n, args[3].bytes.data(), sizeof n);
    HostBuffer& a = buffers[args[0].buffer].data;
    HostBuffer& b = buffers[args[1].buffer].data;
    HostBuffer& c = buffers[args[2].buffer].data;
    for (std::int32_t i = 0; i < n; ++i)
        c.set(std::size_t(i), a.at(std::size_t(i)) + b.at(std::size_t(i)));
}

} // namespace

TEST(RunEngine, PacksArgumentsLaunchesOnceAndChecksOutputs)
{
    Compiler compiler;
    FakeBackend backend;
    backend.kernel = hostAdd;
    RunEngine engine(compiler, backend);
    std::vector<std::string> stages;
    engine.onStage([&](const std::string& s) { stages.push_back(s); });

    RunResult r = engine.run(addDocument());
    ASSERT_TRUE(r.compile.ok) << r.compile.log;
    EXPECT_EQ(backend.launches, 1);
    EXPECT_EQ(r.compile.arch, "compute_75");
    EXPECT_FALSE(backend.lastImage.loweredName.empty());
    EXPECT_EQ(backend.lastImage.entry.params.size(), 4u);

    ASSERT_EQ(backend.lastArgs.size(), 4u);
    EXPECT_TRUE(backend.lastArgs[0].isBuffer);
    EXPECT_EQ(backend.lastArgs[2].buffer, 2u);
    ASSERT_EQ(backend.lastArgs[3].bytes.size(), 4u);
    std::int32_t n = 0;
    std::memcpy(&n, backend.lastArgs[3].bytes.data(), 4);
    EXPECT_EQ(n, 100);
    EXPECT_EQ(backend.lastConfig.grid.x, 2u);
    EXPECT_EQ(backend.lastConfig.block.x, 64u);

    ASSERT_EQ(r.checks.size(), 1u);
    EXPECT_TRUE(r.checks[0].passed);
    EXPECT_EQ(r.checks[0].checked, 100u);
    EXPECT_TRUE(r.ok);
    ASSERT_EQ(r.buffers.size(), 3u);
    EXPECT_FLOAT_EQ(float(r.buffers[2].data.at(7)), 17.0f);
    // 3 buffers of 400 bytes: two read, one written.
    EXPECT_EQ(r.timings.bytesMoved, 1200u);
    EXPECT_NEAR(r.timings.gbps, 1200.0 / 2e-3 / 1e9, 1e-12);
    EXPECT_EQ(r.timings.kernelMs.size(), 3u);
    EXPECT_EQ(stages, (std::vector<std::string>{"compile", "upload", "launch", "checks"}));
}

TEST(RunEngine, WrongScalarSizeIsRefusedBeforeLaunch)
{
    Compiler compiler;
    FakeBackend backend;
    RunEngine engine(compiler, backend);
    // The validator already refuses it when the document is loaded ...
    EXPECT_THROW(DocumentReader::readString(addDocumentText("i64")), Error);
    // ... and the engine refuses it again against the PTX, for documents that skipped it.
    try {
        engine.run(DocumentReader::parse(addDocumentText("i64")));
        FAIL() << "an 8-byte scalar for an int parameter must be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Document);
        const std::string msg = e.what();
        EXPECT_NE(msg.find("args[3] (n)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("8 bytes"), std::string::npos) << msg;
        EXPECT_NE(msg.find("4 bytes"), std::string::npos) << msg;
    }
    EXPECT_EQ(backend.launches, 0);
}

TEST(RunEngine, FailedCheckMakesTheRunNotOk)
{
    Compiler compiler;
    FakeBackend backend; // computes nothing: c stays zero
    RunEngine engine(compiler, backend);
    RunResult r = engine.run(addDocument());
    ASSERT_EQ(r.checks.size(), 1u);
    EXPECT_FALSE(r.checks[0].passed);
    EXPECT_EQ(r.checks[0].mismatches, 100u);
    EXPECT_FALSE(r.ok);
}

TEST(RunEngine, CompileErrorIsAResultNotAnException)
{
    Compiler compiler;
    FakeBackend backend;
    RunEngine engine(compiler, backend);
    Document doc = addDocument();
    doc.source = "__global__ void add_vectors(const float *a, const float *b, float *c, int n)\n{ c[0] = q; }\n";
    RunResult r = engine.run(doc);
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.compile.ok);
    ASSERT_FALSE(r.compile.diagnostics.empty());
    EXPECT_EQ(r.compile.diagnostics[0].line, 2);
    EXPECT_EQ(backend.launches, 0);
}

TEST(RunEngine, PrintfOutputIsParsedIntoTaggedLines)
{
    Compiler compiler;
    FakeBackend backend;
    backend.kernel = hostAdd;
    backend.printfText = "\x1e"
                         "1,0,0;2,3,0\x1f"
                         "hello\n"
                         "plain line\n";
    RunEngine engine(compiler, backend);
    RunResult r = engine.run(addDocument());
    ASSERT_EQ(r.printf.lines.size(), 1u);
    EXPECT_EQ(r.printf.lines[0].block.x, 1u);
    EXPECT_EQ(r.printf.lines[0].thread.y, 3u);
    EXPECT_EQ(r.printf.lines[0].text, "hello");
    ASSERT_EQ(r.printf.untagged.size(), 1u);
    EXPECT_EQ(r.printf.untagged[0], "plain line");
}

namespace {

PtxEntry entryOf(std::initializer_list<std::size_t> sizes)
{
    PtxEntry e;
    e.name = "k";
    for (auto s : sizes)
        e.params.push_back({s, s, s == 8});
    return e;
}

LaunchArg scalar(std::size_t bytes)
{
    LaunchArg a;
    a.bytes.resize(bytes);
    return a;
}

LaunchArg bufferArg(std::size_t index)
{
    LaunchArg a;
    a.isBuffer = true;
    a.buffer = index;
    return a;
}

} // namespace

TEST(ArgumentCheck, RefusesCountSizeAndKindMismatches)
{
    std::vector<BufferArg> buffers(1);
    buffers[0].name = "x";
    buffers[0].data = HostBuffer(DType::F32, 4);
    std::vector<ArgSpec> specs(2);
    specs[0].name = "x";
    specs[0].buffer = "x";
    specs[1].name = "n";
    specs[1].type = DType::I32;

    EXPECT_NO_THROW(ArgumentCheck::check("k", entryOf({8, 4}), nullptr, specs, {bufferArg(0), scalar(4)}, buffers));
    EXPECT_THROW(ArgumentCheck::check("k", entryOf({8, 4}), nullptr, specs, {bufferArg(0)}, buffers), Error);
    EXPECT_THROW(ArgumentCheck::check("k", entryOf({8, 8}), nullptr, specs, {bufferArg(0), scalar(4)}, buffers), Error);
    // A buffer for a 4-byte parameter can never be right.
    EXPECT_THROW(ArgumentCheck::check("k", entryOf({4, 4}), nullptr, specs, {bufferArg(0), scalar(4)}, buffers), Error);

    // With the C signature an 8-byte scalar into a pointer parameter is refused too.
    KernelSignature sig;
    sig.name = "k";
    sig.params.resize(2);
    sig.params[0] = {"x", "float *", "float", true, false, false};
    sig.params[1] = {"p", "double *", "double", true, false, false};
    std::vector<ArgSpec> specs2 = specs;
    specs2[1].type = DType::I64;
    EXPECT_THROW(ArgumentCheck::check("k", entryOf({8, 8}), &sig, specs2, {bufferArg(0), scalar(8)}, buffers), Error);
}

TEST(ArgumentCheck, WarnsWhenABufferTypeDiffersFromThePointee)
{
    std::vector<BufferArg> buffers(1);
    buffers[0].name = "x";
    buffers[0].data = HostBuffer(DType::F64, 4);
    KernelSignature sig;
    sig.name = "k";
    sig.params = {{"x", "float *", "float", true, false, false}};
    std::vector<ArgSpec> specs(1);
    specs[0].buffer = "x";
    auto warnings = ArgumentCheck::check("k", entryOf({8}), &sig, specs, {bufferArg(0)}, buffers);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("f64"), std::string::npos);
}

TEST(TimingStats, MinMedianMean)
{
    auto s = TimingStats::compute({4.0, 1.0, 3.0, 2.0});
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    s = TimingStats::compute({5.0, 1.0, 3.0});
    EXPECT_DOUBLE_EQ(s.median, 3.0);
}
