// Documents of several steps (version 2) run on the simulator through the run engine:
// a two-pass reduction, a ping-pong over two swapped buffers, a loop until a flag read
// back stays 0 and its limit, the pass index in an argument, copies and fills of ranges,
// per-step checks, a fault naming its step and printf tagged by step; the buffers kept
// after chosen steps and their limit; the steps announced as they begin; initcheck across
// the steps; the profile of each launch step and of the whole; straight loops replayed as
// recorded passes (on the simulator one launch at a time) end as step by step.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/ProfileReportText.hpp"
#include "run/RunEngine.hpp"
#include "run/StepProgress.hpp"
#include "serve/ResultJson.hpp"
#include "sim/SimBackend.hpp"
#include "util/Error.hpp"

#include "SimTestSupport.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
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

RunResult runWith(const std::string& text, const RunOverrides& overrides, const RunEngine::StepCallback& onStep = {})
{
    Compiler compiler;
    SimBackend sim;
    RunEngine engine(compiler, sim);
    engine.onStep(onStep);
    return engine.run(DocumentReader::readString(text), overrides);
}

const BufferResult& bufferOf(const StepResult& s, const std::string& name)
{
    for (const BufferResult& b : s.buffers)
        if (b.name == name)
            return b;
    throw std::runtime_error("no buffer " + name + " after step " + s.path);
}

// plus_one u -> v, then a loop of three passes adding 10 to u, then a fill of v.
std::string threeStepText()
{
    return documentText(R"J(["plus_one", "add"])J", kIntBuffers,
                        R"J([{"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"repeat": 3, "index": "p", "steps": [
                {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
                 "args": [{"buffer": "u"}, {"type": "i32", "value": "10 * (p + 1)"}, {"type": "i32", "value": "n"}]}]},
              {"fill": "v", "value": 5}])J");
}

} // namespace

TEST(SequenceRun, BuffersAfterAStepAreAsThatStepLeftThem)
{
    KW_REQUIRE_NVRTC();
    RunOverrides o;
    o.stepBuffers = {"1", "2.1"};
    const RunResult r = runWith(threeStepText(), o);
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_TRUE(r.ok) << r.stopped;
    // The host's computation of each step: after step 1, v = u + 1 and u as uploaded; after
    // the last pass of 2.1, u has had 10, 20 and 30 added, v is still step 1's.
    const StepResult& first = stepOf(r, "1");
    ASSERT_EQ(first.buffers.size(), 3u);
    const StepResult& inner = stepOf(r, "2.1");
    ASSERT_EQ(inner.buffers.size(), 3u);
    for (std::size_t i = 0; i < 1000; ++i) {
        ASSERT_EQ(bufferOf(first, "u").data.at(i), double(i)) << i;
        ASSERT_EQ(bufferOf(first, "v").data.at(i), double(i + 1)) << i;
        ASSERT_EQ(bufferOf(inner, "u").data.at(i), double(i + 60)) << i;
        ASSERT_EQ(bufferOf(inner, "v").data.at(i), double(i + 1)) << i;
        ASSERT_EQ(bufferOf(r, "v").data.at(i), 5.0) << "the final state is the fill's";
    }
    EXPECT_EQ(bufferOf(first, "u").shape, std::vector<std::size_t>{1000});
    EXPECT_EQ(bufferOf(first, "u").data.dtype(), DType::I32);
    EXPECT_TRUE(stepOf(r, "2").buffers.empty()) << "not asked for";
    EXPECT_TRUE(stepOf(r, "3").buffers.empty()) << "not asked for";
    EXPECT_TRUE(r.warnings.empty());
}

TEST(SequenceRun, AStarKeepsTheBuffersAfterEveryStep)
{
    KW_REQUIRE_NVRTC();
    RunOverrides o;
    o.stepBuffers = {"*"};
    const RunResult r = runWith(threeStepText(), o);
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_EQ(r.steps.size(), 4u);
    for (const StepResult& s : r.steps)
        EXPECT_EQ(s.buffers.size(), 3u) << s.path;
    EXPECT_EQ(bufferOf(stepOf(r, "2"), "u").data.at(7), 67.0) << "a repeat: after its last pass";
    EXPECT_EQ(bufferOf(stepOf(r, "3"), "v").data.at(7), 5.0);
}

TEST(SequenceRun, BuffersPastTheLimitAreLeftOutWithAWarningNamingTheirSteps)
{
    KW_REQUIRE_NVRTC();
    RunOverrides o;
    o.stepBuffers = {"*"};
    o.stepBufferLimitBytes = 2 * (1000 * 4 + 1000 * 4 + 4); // two steps' copies
    const RunResult r = runWith(threeStepText(), o);
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_EQ(stepOf(r, "1").buffers.size(), 3u);
    EXPECT_EQ(stepOf(r, "2").buffers.size(), 0u) << "step 2 ends after its inner step, which took the room";
    EXPECT_EQ(stepOf(r, "2.1").buffers.size(), 3u);
    EXPECT_EQ(stepOf(r, "3").buffers.size(), 0u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0],
              "the buffers after steps 2, 3 were not kept: they would pass the limit of 16008 bytes "
              "of buffers kept after steps");
    EXPECT_TRUE(r.ok) << "the run itself is right";
}

TEST(SequenceRun, BuffersAfterAStepThatDoesNotExistAreAnErrorNamingIt)
{
    KW_REQUIRE_NVRTC();
    RunOverrides o;
    o.stepBuffers = {"2.2"};
    try {
        runWith(threeStepText(), o);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "buffers after step \"2.2\" were asked for, but the document has no such "
                  "step (its steps: 1, 2, 2.1, 3)");
    }
}

TEST(SequenceRun, EachStepIsAnnouncedAsItBeginsButALoopDoesNotFlood)
{
    KW_REQUIRE_NVRTC();
    std::vector<std::string> seen;
    const RunResult r = runWith(documentText(R"J(["add"])J", kIntBuffers,
                                             R"J([{"fill": "u", "value": 1},
              {"repeat": 200, "steps": [{"fill": "changed", "value": 0}]},
              {"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]}])J"),
                                RunOverrides{}, [&](const std::string& path) { seen.push_back(path); });
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_TRUE(r.ok) << r.stopped;
    ASSERT_GE(seen.size(), 4u);
    EXPECT_EQ(seen[0], "1");
    EXPECT_EQ(seen[1], "2");
    EXPECT_EQ(seen[2], "2.1");
    EXPECT_EQ(seen.back(), "3");
    // 200 fills take far less than 200 × 50 ms: a few announcements, not 200.
    EXPECT_LT(std::count(seen.begin(), seen.end(), "2.1"), 20);
}

TEST(StepProgress, AnnouncesAPathAgainOnlyAfterItsInterval)
{
    std::vector<std::string> seen;
    StepProgress progress([&](const std::string& p) { seen.push_back(p); });
    const auto t0 = StepProgress::Clock::time_point{} + std::chrono::hours(1);
    progress.started("1", t0);
    progress.started("1", t0 + std::chrono::milliseconds(49));
    progress.started("2", t0 + std::chrono::milliseconds(49));
    progress.started("1", t0 + std::chrono::milliseconds(50));
    progress.started("1", t0 + std::chrono::milliseconds(60));
    EXPECT_EQ(seen, (std::vector<std::string>{"1", "2", "1"}));
}

namespace {

// u (arange, inout), v (zeros, inout) and w, an out buffer: what the steps produce.
const char* kBuffersWithAnOutput = R"J([
    {"name": "u", "dtype": "i32", "count": "n", "init": {"kind": "arange"}},
    {"name": "v", "dtype": "i32", "count": "n", "init": "zeros"},
    {"name": "w", "dtype": "i32", "count": "n", "direction": "out"}])J";

// plus_one from `in` to `out`, as one launch step.
std::string plusOne(const std::string& in, const std::string& out)
{
    return R"J({"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128, "args": [{"buffer": ")J" + in
        + R"J("}, {"buffer": ")J" + out + R"J("}, {"type": "i32", "value": "n"}]})J";
}

RunResult initchecked(const std::string& steps)
{
    RunOverrides o;
    o.check = CheckTool::Initcheck;
    return runWith(documentText(R"J(["plus_one"])J", kBuffersWithAnOutput, steps), o);
}

// The line of kSource that holds `text`, counted from 1.
int sourceLine(const std::string& text)
{
    const std::string source = kSource;
    const std::size_t at = source.find(text);
    return int(std::count(source.begin(), source.begin() + long(at), '\n')) + 1;
}

std::string findingsText(const RunResult& r)
{
    std::string all;
    for (const CheckFinding& f : r.findings)
        all += f.message + "\n";
    return all;
}

} // namespace

TEST(SequenceRunInitcheck, AReadOfAnOutBufferNoStepWroteIsAFindingNamingTheStepKernelLineAndElement)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = initchecked("[" + plusOne("u", "v") + ", " + plusOne("w", "u") + "]");
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.kind, "uninitialized read");
    EXPECT_EQ(f.line, sourceLine("out[i] = in[i] + 1;"));
    EXPECT_EQ(f.message.rfind("step 2 (plus_one): uninitialised global memory read of 4 bytes of buffer 'w', "
                              "element 0 ",
                              0),
              0u)
        << f.message;
    EXPECT_EQ(f.count, 1000u) << "every thread's read, folded by line";
    EXPECT_FALSE(r.ok);
}

TEST(SequenceRunInitcheck, WhatAnEarlierStepAFillOrACopyWroteIsData)
{
    KW_REQUIRE_NVRTC();
    // A launch writes w, then w is read.
    RunResult r = initchecked("[" + plusOne("u", "w") + ", " + plusOne("w", "v") + "]");
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.findings.empty()) << findingsText(r);
    EXPECT_TRUE(r.ok);
    // A fill writes w.
    r = initchecked(R"J([{"fill": "w", "value": 3}, )J" + plusOne("w", "v") + "]");
    EXPECT_TRUE(r.findings.empty()) << findingsText(r);
    // A copy of uploaded data writes its range, and only that: element 10 is still unwritten.
    r = initchecked(R"J([{"copy": "u", "to": "w", "count": 10}, )J" + plusOne("w", "v") + "]");
    ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
    EXPECT_NE(r.findings[0].message.find("of buffer 'w', element 10 "), std::string::npos) << r.findings[0].message;
    EXPECT_EQ(r.findings[0].count, 990u);
    // A copy carries the state of its source: w's unwritten elements stay unwritten in v.
    r = initchecked(R"J([{"fill": "w", "value": 1, "offset": 500}, {"copy": "w", "to": "v"}, )J" + plusOne("v", "u")
                    + "]");
    ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
    EXPECT_NE(r.findings[0].message.find("step 3 (plus_one): "), std::string::npos) << r.findings[0].message;
    EXPECT_NE(r.findings[0].message.find("of buffer 'v', element 0 "), std::string::npos) << r.findings[0].message;
    EXPECT_EQ(r.findings[0].count, 500u);
}

TEST(SequenceRunInitcheck, ASwapExchangesTheNamesOfWhatIsWritten)
{
    KW_REQUIRE_NVRTC();
    // After the swap, v is the unwritten out buffer, and the finding names it v.
    const RunResult r
        = initchecked(R"J([{"swap": ["v", "w"]}, )J" + plusOne("v", "u") + ", " + plusOne("w", "u") + "]");
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_EQ(r.findings.size(), 1u) << findingsText(r);
    EXPECT_EQ(r.findings[0].message.rfind("step 2 (plus_one): uninitialised global memory read of 4 bytes of buffer "
                                          "'v', element 0 ",
                                          0),
              0u)
        << r.findings[0].message;
}

TEST(SequenceRunInitcheck, WithoutInitcheckNothingIsTracked)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = runWith(documentText(R"J(["plus_one"])J", kBuffersWithAnOutput,
                                             "[" + plusOne("u", "v") + ", " + plusOne("w", "u") + "]"),
                                RunOverrides{});
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_TRUE(r.ok);
}

namespace {

RunResult profiled(const std::string& text)
{
    RunOverrides o;
    o.profile.enabled = true;
    return runWith(text, o);
}

// `add` of 1 on u, then a loop of two passes of plus_one from u to v.
std::string twoKernelText()
{
    return documentText(R"J(["add", "plus_one"])J", kIntBuffers,
                        R"J([{"launch": "add", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]},
              {"repeat": 2, "steps": [{"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]}]}])J");
}

// The same launch of one kernel as a version-1 document.
std::string oneLaunchText(const std::string& kernel, const std::string& args)
{
    return std::string(R"J({"format": "kernel-workbench", "version": 1, "source": )J") + quoted(kSource)
        + R"J(, "kernel": ")J" + kernel + R"J(", "variables": [["n", 1000]], "buffers": )J" + kIntBuffers
        + R"J(, "args": )J" + args
        + R"J(, "launch": {"grid": ["cdiv(n, 128)"], "block": [128]}, "run": {"warmup": 0, "repeats": 0}})J";
}

const LineProfile* lineOf(const KernelProfile& p, const LineProfile& like)
{
    for (const LineProfile& l : p.lines)
        if (l.file == like.file && l.line == like.line)
            return &l;
    return nullptr;
}

} // namespace

TEST(SequenceRunProfile, EachLaunchStepIsCountedAndTheStepsSumToTheWhole)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = profiled(twoKernelText());
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    ASSERT_TRUE(r.ok) << r.stopped;
    ASSERT_TRUE(r.profile);
    EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
    const StepResult& add = stepOf(r, "1");
    const StepResult& plus = stepOf(r, "2.1");
    ASSERT_TRUE(add.profile);
    ASSERT_TRUE(plus.profile);
    EXPECT_FALSE(stepOf(r, "2").profile) << "a repeat launches nothing itself";

    ProfileCounters sum = add.profile->totals;
    sum += plus.profile->totals;
    EXPECT_EQ(sum, r.profile->totals);
    // Line by line, and each line names the steps that ran it.
    for (const LineProfile& l : r.profile->lines) {
        ProfileCounters parts;
        std::vector<std::string> steps;
        for (const StepResult* s : {&add, &plus})
            if (const LineProfile* m = lineOf(*s->profile, l)) {
                parts += m->counters;
                steps.push_back(s->path);
            }
        EXPECT_EQ(parts, l.counters) << "line " << l.line;
        EXPECT_EQ(steps, l.steps) << "line " << l.line;
    }
    std::size_t lines = 0;
    for (const StepResult* s : {&add, &plus})
        for (const LineProfile& l : s->profile->lines)
            lines += lineOf(*r.profile, l) != nullptr;
    EXPECT_EQ(lines, add.profile->lines.size() + plus.profile->lines.size()) << "no step's line is lost";
}

TEST(SequenceRunProfile, AStepsCountersAreThoseOfTheSameLaunchAloneTimesItsRuns)
{
    KW_REQUIRE_NVRTC();
    const RunResult steps = profiled(twoKernelText());
    ASSERT_TRUE(steps.compile.ok) << compileLog(steps);
    const RunResult add = profiled(
        oneLaunchText("add", R"J([{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}])J"));
    const RunResult plus
        = profiled(oneLaunchText("plus_one", R"J([{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}])J"));
    ASSERT_TRUE(add.profile);
    ASSERT_TRUE(plus.profile);
    const KernelProfile& step1 = *stepOf(steps, "1").profile;
    EXPECT_EQ(step1.totals, add.profile->totals);
    ASSERT_EQ(step1.lines.size(), add.profile->lines.size());
    for (std::size_t i = 0; i < step1.lines.size(); ++i) {
        EXPECT_EQ(step1.lines[i].line, add.profile->lines[i].line);
        EXPECT_EQ(step1.lines[i].counters, add.profile->lines[i].counters) << "line " << step1.lines[i].line;
    }
    ProfileCounters twice = plus.profile->totals;
    twice += plus.profile->totals;
    EXPECT_EQ(stepOf(steps, "2.1").profile->totals, twice) << "two passes";
}

TEST(SequenceRunProfile, TheTextShowsTheWholeThenEachStep)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = profiled(twoKernelText());
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    const std::string text = profileReportText(r, kSource);
    const std::size_t whole = text.find("all steps together:\n");
    const std::size_t first = text.find("\nstep 1 (add, 1 run):\n");
    const std::size_t second = text.find("\nstep 2.1 (plus_one, 2 runs):\n");
    ASSERT_NE(whole, std::string::npos) << text;
    ASSERT_NE(first, std::string::npos) << text;
    ASSERT_NE(second, std::string::npos) << text;
    EXPECT_LT(whole, first);
    EXPECT_LT(first, second);
    EXPECT_NE(text.find("step 2.1\n"), std::string::npos) << "a line of the whole names its step\n" << text;
    EXPECT_EQ(text.find("step 2 ("), std::string::npos) << "a repeat has no profile of its own\n" << text;
}

TEST(SequenceRunProfile, TheProfileOfStepsRoundTripsThroughJson)
{
    KW_REQUIRE_NVRTC();
    const RunResult r = profiled(twoKernelText());
    ASSERT_TRUE(r.profile);
    const nlohmann::json j = toJson(r, kSource);
    ASSERT_TRUE(j["steps"][0].contains("profile"));
    EXPECT_FALSE(j["steps"][1].contains("profile"));
    EXPECT_TRUE(j["profile"]["lines"][0].contains("steps"));
    const RunResult back = runResultFromJson(nlohmann::json::parse(j.dump()));
    ASSERT_TRUE(back.profile);
    EXPECT_EQ(back.profile->totals, r.profile->totals);
    ASSERT_EQ(back.profile->lines.size(), r.profile->lines.size());
    for (std::size_t i = 0; i < r.profile->lines.size(); ++i)
        EXPECT_EQ(back.profile->lines[i].steps, r.profile->lines[i].steps);
    ASSERT_TRUE(stepOf(back, "2.1").profile);
    EXPECT_EQ(stepOf(back, "2.1").profile->totals, stepOf(r, "2.1").profile->totals);
}

TEST(SequenceRun, AStarAsksNothingOfADocumentOfOneLaunchButAPathIsAnError)
{
    KW_REQUIRE_NVRTC();
    const std::string one
        = oneLaunchText("add", R"J([{"buffer": "u"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}])J");
    RunOverrides all;
    all.stepBuffers = {"*"};
    const RunResult r = runWith(one, all);
    ASSERT_TRUE(r.compile.ok) << compileLog(r);
    EXPECT_TRUE(r.steps.empty());
    EXPECT_TRUE(r.warnings.empty());
    RunOverrides path;
    path.stepBuffers = {"1"};
    EXPECT_THROW(runWith(one, path), Error);
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

TEST(SequenceRun, BuffersKeptAfterAStepOfARecordedLoopAreThoseOfItsLastPass)
{
    KW_REQUIRE_NVRTC();
    // 7 passes of a ping-pong: passes 2 to 6 are recorded, the last runs step by step so
    // that the buffers after its inner steps can be read; they equal the step-by-step run's.
    const std::string text = documentText(R"J(["plus_one"])J", kIntBuffers,
                                          R"J([{"repeat": 7, "steps": [
              {"launch": "plus_one", "grid": "cdiv(n, 128)", "block": 128,
               "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
              {"swap": ["u", "v"]}]}])J");
    for (const std::vector<std::string>& keep : {std::vector<std::string>{"1.1"}, std::vector<std::string>{"*"}}) {
        RunOverrides o;
        o.stepBuffers = keep;
        const RunResult recorded = runWith(text, o);
        ASSERT_TRUE(recorded.compile.ok) << compileLog(recorded);
        const RunResult alone = runWith(stepByStep(text), o);
        expectSameRuns(recorded, alone);
        const StepResult &a = stepOf(recorded, "1.1"), &b = stepOf(alone, "1.1");
        EXPECT_EQ(a.runs, 7);
        ASSERT_EQ(a.buffers.size(), b.buffers.size());
        ASSERT_FALSE(a.buffers.empty());
        for (std::size_t i = 0; i < a.buffers.size(); ++i) {
            const HostBuffer &x = a.buffers[i].data, &y = b.buffers[i].data;
            ASSERT_EQ(x.byteSize(), y.byteSize());
            EXPECT_EQ(std::memcmp(x.data(), y.data(), x.byteSize()), 0) << a.buffers[i].name;
        }
        // After the 7th launch, v = u + 1 where u went through 6 launches: arange + 7.
        for (const BufferResult& buf : a.buffers)
            if (buf.name == "v")
                EXPECT_EQ(buf.data.at(5), 12);
    }
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
