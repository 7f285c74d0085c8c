// Documents of several steps (version 2) run on the simulator through the run engine:
// a two-pass reduction, a ping-pong over two swapped buffers, a loop until a flag read
// back stays 0 and its limit, the pass index in an argument, copies and fills of ranges,
// per-step checks, a fault naming its step and printf tagged by step; straight loops
// replayed as recorded passes (on the simulator one launch at a time) end as step by step.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "sim/SimBackend.hpp"
#include "util/Error.hpp"

#include "SimTestSupport.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <numeric>
#include <string>

using namespace kw;

namespace {

const char* kSource = R"J(
extern "C" __global__ void block_sums(const float* in, float* partial, int n)
{
    extern __shared__ float s[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
extern "C" __global__ void plus_one(const int* in, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}
extern "C" __global__ void halve(int* a, int* changed, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && a[i] > 0) {
        a[i] /= 2;
        changed[0] = 1;
    }
}
extern "C" __global__ void add(int* a, int k, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += k;
}
extern "C" __global__ void past(int* a) { a[threadIdx.x + 100000000] = 1; }
extern "C" __global__ void past_from(int* a, int k) { a[threadIdx.x + k * 100000000] = 1; }
extern "C" __global__ void hello(int k) { if (threadIdx.x == 0) printf("pass %d\n", k); }
template <int K> __global__ void add_k(int* a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += K;
}
)J";

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

// A version-2 document over kSource with these kernels, buffers, steps and final checks.
std::string documentText(const std::string& kernels, const std::string& buffers, const std::string& steps,
                         const std::string& checks = "[]", const std::string& variables = R"J([["n", 1000]])J")
{
    return std::string(R"({"format": "kernel-workbench", "version": 2, "source": )") + quoted(kSource)
        + R"(, "kernels": )" + kernels + R"(, "variables": )" + variables + R"(, "buffers": )" + buffers
        + R"(, "steps": )" + steps + R"(, "checks": )" + checks + "}";
}

RunResult run(const std::string& text)
{
    Compiler compiler;
    SimBackend sim;
    RunEngine engine(compiler, sim);
    return engine.run(DocumentReader::readString(text));
}

const BufferResult& bufferOf(const RunResult& r, const std::string& name)
{
    for (const BufferResult& b : r.buffers)
        if (b.name == name)
            return b;
    throw std::runtime_error("no buffer " + name);
}

const StepResult& stepOf(const RunResult& r, const std::string& path)
{
    for (const StepResult& s : r.steps)
        if (s.path == path)
            return s;
    throw std::runtime_error("no step " + path);
}

std::string compileLog(const RunResult& r)
{
    std::string log;
    for (const auto& d : r.compile.diagnostics)
        log += d.message + "\n";
    return log;
}

const char* kIntBuffers = R"J([
    {"name": "u", "dtype": "i32", "count": "n", "init": {"kind": "arange"}},
    {"name": "v", "dtype": "i32", "count": "n", "init": "zeros"},
    {"name": "changed", "dtype": "i32", "count": 1, "init": "zeros"}])J";

} // namespace

TEST(SequenceRun, TwoPassReductionSumsBlockPartialsThenThePartials)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(
        R"J(["block_sums"])J",
        R"J([{"name": "x", "dtype": "f32", "count": "n", "init": {"kind": "arange"}, "direction": "in"},
            {"name": "partial", "dtype": "f32", "count": "blocks", "init": "zeros"},
            {"name": "total", "dtype": "f32", "count": 1, "init": "zeros", "direction": "out"}])J",
        R"J([{"launch": "block_sums", "name": "partials", "grid": "blocks", "block": 128, "shared_bytes": "128*4",
             "args": [{"buffer": "x"}, {"buffer": "partial"}, {"type": "i32", "value": "n"}],
             "checks": [{"buffer": "partial", "aggregate": "sum", "expect": "n*(n-1)/2"}]},
            {"launch": "block_sums", "name": "total", "grid": 1, "block": "blocks", "shared_bytes": "blocks*4",
             "args": [{"buffer": "partial"}, {"buffer": "total"}, {"type": "i32", "value": "blocks"}]}])J",
        R"J([{"buffer": "total", "expect": "n*(n-1)/2"}])J", R"J([["n", 1000], ["blocks", "cdiv(n, 128)"]])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped << (r.fault ? r.fault->message : "");
    EXPECT_FALSE(r.fault);
    EXPECT_FLOAT_EQ(bufferOf(r, "total").data.at(0), 499500.0f);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(r.steps[0].name, "partials");
    EXPECT_EQ(r.steps[0].kind, "launch");
    EXPECT_EQ(r.steps[0].grid.x, 8u);
    EXPECT_EQ(r.steps[1].block.x, 8u);
    EXPECT_EQ(r.steps[0].runs, 1);
    ASSERT_EQ(r.steps[0].checks.size(), 1u);
    EXPECT_TRUE(r.steps[0].checks[0].passed);
    ASSERT_EQ(r.checks.size(), 1u);
    EXPECT_TRUE(r.checks[0].passed);
}

TEST(SequenceRun, PingPongSwapsTheBuffersNamesEveryPass)
{
    KW_REQUIRE_NVRTC();
    const RunResult r
        = run(documentText(R"J(["plus_one"])J", kIntBuffers,
                           R"J([{"repeat": 5, "steps": [
              {"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"swap": ["u", "v"]}]}])J",
                           R"J([{"buffer": "u", "expect": "i + 5"}, {"buffer": "v", "expect": "i + 4"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped;
    EXPECT_EQ(bufferOf(r, "u").data.at(999), 1004);
    EXPECT_EQ(stepOf(r, "1").runs, 5);
    EXPECT_EQ(stepOf(r, "1.1").runs, 5);
    EXPECT_EQ(stepOf(r, "1.1").kernelMs.size(), 5u);
    EXPECT_EQ(stepOf(r, "1.2").kind, "swap");
    EXPECT_EQ(stepOf(r, "1.2").runs, 5);
}

TEST(SequenceRun, RepeatUntilReadsTheFlagBackAfterEveryPass)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["halve"])J", kIntBuffers,
                                         R"J([{"repeat_until": "changed(0) == 0", "limit": 100, "steps": [
              {"fill": "changed", "value": 0},
              {"launch": "halve", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "changed"}, {"type": "i32", "value": "n"}]}]}])J",
                                         R"J([{"buffer": "u", "expect": "0"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped;
    // 999 reaches 0 after ten halvings; the eleventh pass changes nothing.
    EXPECT_EQ(stepOf(r, "1").runs, 11);
    EXPECT_EQ(stepOf(r, "1.2").runs, 11);
    EXPECT_TRUE(r.stopped.empty());
}

TEST(SequenceRun, ALoopThatReachesItsLimitStopsWithTheBuffersAsTheLastPassLeftThem)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["halve"])J", kIntBuffers,
                                         R"J([{"repeat_until": "changed(0) == 0", "limit": 3, "steps": [
              {"fill": "changed", "value": 0},
              {"launch": "halve", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "changed"}, {"type": "i32", "value": "n"}]}]}])J",
                                         R"J([{"buffer": "u", "expect": "0"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.stopped.find("still did not hold after 3 passes"), std::string::npos) << r.stopped;
    EXPECT_NE(r.stopped.find("step 1"), std::string::npos) << r.stopped;
    EXPECT_EQ(stepOf(r, "1").runs, 3);
    EXPECT_TRUE(r.checks.empty()) << "the final checks do not run on a sequence that stopped";
    EXPECT_EQ(bufferOf(r, "u").data.at(999), 999 / 8);
}

TEST(SequenceRun, ThePassIndexIsAVariableOfTheInnerSteps)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["add"])J", kIntBuffers,
                                         R"J([{"repeat": 4, "index": "d", "steps": [
              {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"type": "i32", "value": "1 << d"}, {"type": "i32", "value": "n"}]}]}])J",
                                         R"J([{"buffer": "u", "expect": "i + 15"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped;
}

TEST(SequenceRun, TemplateInstantiationsAreKernelsOfTheirOwn)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(
        R"J(["add_k<1>", "add_k<10>"])J", kIntBuffers,
        R"J([{"launch": "add_k<1>", "grid": "cdiv(n, 128)", "block": 128, "args": [{"buffer": "u"}, {"type": "i32", "value": "n"}]},
            {"launch": "add_k<10>", "grid": "cdiv(n, 128)", "block": 128, "args": [{"buffer": "u"}, {"type": "i32", "value": "n"}]}])J",
        R"J([{"buffer": "u", "expect": "i + 11"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped;
}

TEST(SequenceRun, CopyAndFillActOnTheRangesTheyName)
{
    KW_REQUIRE_NVRTC();
    const RunResult r
        = run(documentText(R"J(["add"])J", kIntBuffers,
                           R"J([{"copy": "u", "to": "v", "from_offset": 2, "count": 3, "to_offset": 10},
            {"fill": "v", "value": 7, "offset": 20, "count": 2},
            {"copy": "v", "to": "u", "name": "back"}])J",
                           R"J([{"buffer": "v", "expect": "i >= 10 && i < 13 ? i - 8 : (i == 20 || i == 21 ? 7 : 0)"},
            {"buffer": "u", "expect": "v"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok) << r.stopped;
    EXPECT_EQ(stepOf(r, "3").name, "back");
    EXPECT_EQ(stepOf(r, "1").name, "copy u to v");
}

TEST(SequenceRun, ACopyOutsideItsBufferIsAnErrorNamingTheStep)
{
    KW_REQUIRE_NVRTC();
    try {
        run(documentText(R"J(["add"])J", kIntBuffers,
                         R"J([{"copy": "u", "to": "v", "from_offset": 999, "count": 2}])J"));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "steps[0]: elements 999 to 1001 are outside \"u\" (1000 elements)");
    }
}

TEST(SequenceRun, AFailingCheckAfterAStepIsKeptWithThatStep)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["add"])J", kIntBuffers,
                                         R"J([{"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
             "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}],
             "checks": [{"buffer": "u", "expect": "i + 2"}]},
            {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
             "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]}])J",
                                         R"J([{"buffer": "u", "expect": "i + 2"}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(stepOf(r, "1").checks.size(), 1u);
    EXPECT_FALSE(stepOf(r, "1").checks[0].passed);
    EXPECT_EQ(stepOf(r, "1").checks[0].mismatches, 1000u);
    ASSERT_EQ(r.checks.size(), 1u);
    EXPECT_TRUE(r.checks[0].passed) << "the final state is right";
}

TEST(SequenceRun, AFaultNamesItsStepAndStopsTheSequence)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["add", "past"])J", kIntBuffers,
                                         R"J([{"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
             "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]},
            {"launch": "past", "grid": 1, "block": 32, "args": [{"buffer": "v"}]},
            {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
             "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_FALSE(r.ok);
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.faultStep, "2");
    EXPECT_EQ(r.fault->message.rfind("step 2 (past, run 1): ", 0), 0u) << r.fault->message;
    EXPECT_EQ(stepOf(r, "3").runs, 0);
    // The simulator's memory outlives the fault: the buffers are those after step 1.
    EXPECT_EQ(bufferOf(r, "u").data.at(5), 6);
}

TEST(SequenceRun, PrintfLinesCarryTheirStep)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["hello"])J", kIntBuffers,
                                         R"J([{"repeat": 2, "index": "k", "steps": [
                                 {"launch": "hello", "grid": 1, "block": 32, "args": [{"type": "i32", "value": "k"}]}]},
                               {"launch": "hello", "grid": 1, "block": 32, "args": [{"type": "i32", "value": 7}]}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_EQ(r.printf.lines.size(), 3u);
    EXPECT_EQ(r.printf.lines[0].text, "pass 0");
    EXPECT_EQ(r.printf.lines[0].step, "1.1");
    EXPECT_EQ(r.printf.lines[1].text, "pass 1");
    EXPECT_EQ(r.printf.lines[2].text, "pass 7");
    EXPECT_EQ(r.printf.lines[2].step, "2");
}

namespace {

// The same document with run.graph off: every step on its own.
std::string stepByStep(const std::string& text)
{
    nlohmann::json j = nlohmann::json::parse(text);
    j["run"]["graph"] = false;
    return j.dump();
}

// Both runs ended alike: buffers element for element, every step's runs and launch times.
void expectSameRuns(const RunResult& recorded, const RunResult& alone)
{
    EXPECT_TRUE(recorded.ok) << recorded.stopped << (recorded.fault ? recorded.fault->message : "");
    EXPECT_TRUE(alone.ok) << alone.stopped;
    ASSERT_EQ(recorded.buffers.size(), alone.buffers.size());
    for (std::size_t b = 0; b < alone.buffers.size(); ++b) {
        const HostBuffer &x = recorded.buffers[b].data, &y = alone.buffers[b].data;
        ASSERT_EQ(x.byteSize(), y.byteSize());
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.byteSize()), 0) << "buffer " << alone.buffers[b].name;
    }
    ASSERT_EQ(recorded.steps.size(), alone.steps.size());
    for (std::size_t s = 0; s < alone.steps.size(); ++s) {
        EXPECT_EQ(recorded.steps[s].runs, alone.steps[s].runs) << "step " << alone.steps[s].path;
        // The simulator replays one launch at a time, so each launch keeps its own time.
        EXPECT_EQ(recorded.steps[s].kernelMs.size(), alone.steps[s].kernelMs.size()) << "step " << alone.steps[s].path;
    }
}

} // namespace

TEST(SequenceRun, ASwapCycleOfThreeOverManyChunksEndsAsTheStepByStepRun)
{
    KW_REQUIRE_NVRTC();
    // u -> v -> w: the names come back after three passes; 301 passes of 3 operations
    // are two full recordings of 126 passes, one of the 48 left, after the first pass.
    const std::string text = documentText(R"J(["plus_one", "add"])J",
                                          R"J([{"name": "u", "dtype": "i32", "count": "n", "init": {"kind": "arange"}},
            {"name": "v", "dtype": "i32", "count": "n", "init": "zeros"},
            {"name": "w", "dtype": "i32", "count": "n", "init": "zeros"},
            {"name": "wide", "dtype": "i64", "count": 8, "init": "zeros"}])J",
                                          R"J([{"repeat": 301, "name": "rotate", "steps": [
              {"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"copy": "v", "to": "w", "count": 10, "from_offset": 5},
              {"fill": "wide", "value": "n * 3", "offset": 2, "count": 4},
              {"swap": ["u", "v"]}, {"swap": ["v", "w"]}]}])J",
                                          "[]", R"J([["n", 200]])J");
    const RunResult recorded = run(text);
    ASSERT_TRUE(recorded.compile.ok) << compileLog(recorded);
    const RunResult alone = run(stepByStep(text));
    expectSameRuns(recorded, alone);
    EXPECT_EQ(stepOf(recorded, "1").runs, 301);
    EXPECT_EQ(stepOf(recorded, "1.1").kernelMs.size(), 301u);
    EXPECT_EQ(bufferOf(recorded, "wide").data.at(3), 600);
}

TEST(SequenceRun, ALoopWhosePassesDifferIsPlannedPassByPassAndEndsAsTheStepByStepRun)
{
    KW_REQUIRE_NVRTC();
    const std::string text = documentText(R"J(["add", "plus_one"])J", kIntBuffers,
                                          R"J([{"repeat": 200, "index": "d", "steps": [
              {"launch": "add", "grid": "cdiv(n - d, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"type": "i32", "value": "d % 7"}, {"type": "i32", "value": "n - d"}]},
              {"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"swap": ["u", "v"]}],
              "checks": [{"buffer": "changed", "expect": "d - 199"}]}])J");
    const RunResult recorded = run(text);
    ASSERT_TRUE(recorded.compile.ok) << compileLog(recorded);
    expectSameRuns(recorded, run(stepByStep(text)));
    ASSERT_EQ(stepOf(recorded, "1").checks.size(), 1u);
    EXPECT_TRUE(stepOf(recorded, "1").checks[0].passed) << "the index is the last pass's after the loop";
}

TEST(SequenceRun, AFaultInARecordedPassNamesItsStepAndRun)
{
    KW_REQUIRE_NVRTC();
    // Pass 0 writes inside v; pass 1, the first replayed, writes far outside it.
    const RunResult r = run(documentText(R"J(["add", "past_from"])J", kIntBuffers,
                                         R"J([{"repeat": 5, "index": "k", "steps": [
              {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]},
              {"launch": "past_from", "grid": 1, "block": 32, "args": [{"buffer": "v"}, {"type": "i32", "value": "k"}]}]}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_TRUE(r.fault);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.faultStep, "1.2");
    EXPECT_EQ(r.fault->message.rfind("step 1.2 (past_from, run 2): ", 0), 0u) << r.fault->message;
    EXPECT_EQ(stepOf(r, "1").runs, 1);
    EXPECT_EQ(stepOf(r, "1.1").runs, 2);
    EXPECT_EQ(bufferOf(r, "u").data.at(7), 9) << "the buffers as the faulting launch found them";
}

TEST(SequenceRun, TheSimulatorSaysNothingOfGraphs)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = run(documentText(R"J(["plus_one"])J", kIntBuffers,
                                         R"J([{"repeat": 4, "steps": [
              {"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"swap": ["u", "v"]}]}])J"));
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
}
