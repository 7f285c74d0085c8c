// What a grader must not be fooled by, on a small exercise (y = 2x, y an out buffer):
// a kernel that writes nothing, one that returns early for small n, one that changes its
// input, one past the instruction limit, one that misses a goal on the counters; and the
// secret seed: two runs see different inputs and give a correct kernel the same verdict.
#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "doc/PreparedRun.hpp"
#include "grade/ExerciseReader.hpp"
#include "grade/GradeReportText.hpp"
#include "grade/Grader.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace kw::grade;

namespace {

const char* kExercise = R"X({
  "format": "kernel-workbench-exercise",
  "version": 1,
  "title": "Double",
  "document": {
    "format": "kernel-workbench", "version": 1,
    "source": "__global__ void twice(int n, const float* x, float* y) { }\n",
    "kernel": "twice",
    "variables": [["n", "100"], ["block", "64"]],
    "buffers": [
      {"name": "x", "dtype": "f32", "count": "n", "init": {"kind": "uniform", "low": -4, "high": 4, "seed": 1}, "direction": "in"},
      {"name": "y", "dtype": "f32", "count": "n", "direction": "out"}
    ],
    "args": [{"type": "i32", "value": "n"}, {"buffer": "x"}, {"buffer": "y"}],
    "launch": {"grid": "cdiv(n, block)", "block": "block"}
  },
  "reference": {"source": "__global__ void twice(int n, const float* x, float* y)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        y[i] = 2 * x[i];\n}\n"},
  "outputs": [{"buffer": "y"}],
  "cases": [{"name": "n=1", "variables": {"n": 1}, "seed": 1}, {"name": "n=33", "variables": {"n": 33}, "seed": 2},
            {"name": "n=1025", "variables": {"n": 1025}, "seed": 3}],
  "limits": {"instructions": 20000},
  "goals": [{"metric": "global_excess", "at_most": 1.1, "cases": ["n=1025"]}]
})X";

const std::string kRight = "__global__ void twice(int n, const float* x, float* y)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < n)\n"
                           "        y[i] = x[i] + x[i];\n"
                           "}\n";

class Cheats : public testing::Test {
protected:
    Exercise ex = ExerciseReader::readString(kExercise);
    kw::SimBackend sim;
    kw::Compiler compiler{kw::ProgramCache::openDefault()};

    SolutionReport grade(const std::string& source, std::uint64_t seed = 1)
    {
        Grader grader(ex, sim, compiler, true, seed);
        return grader.gradeOne({"solution.cu", source, "solution.cu"});
    }
    static std::string text(const SolutionReport& s)
    {
        GradeReport r;
        r.solutions = {s};
        return GradeReportText::format(r);
    }
};

} // namespace

TEST_F(Cheats, ARightSolutionPasses)
{
    const SolutionReport s = grade(kRight);
    EXPECT_TRUE(s.allPassed()) << text(s);
    ASSERT_EQ(s.cases[2].goals.size(), 1u);
    EXPECT_TRUE(s.cases[2].goals[0].met);
    EXPECT_TRUE(s.cases[0].goals.empty()); // the goal names n=1025 alone
    EXPECT_GT(s.cases[2].instructions, 0u);
}

TEST_F(Cheats, WritingNothingIsCaught)
{
    const SolutionReport s = grade("__global__ void twice(int n, const float* x, float* y) { }\n");
    for (const CaseOutcome& c : s.cases) {
        EXPECT_EQ(c.verdict, CaseOutcome::Verdict::Wrong) << text(s);
        ASSERT_TRUE(c.wrong);
        EXPECT_TRUE(c.wrong->unwritten);
        EXPECT_EQ(c.wrong->index, 0u);
        EXPECT_FALSE(c.wrong->writer.found);
        EXPECT_EQ(c.wrong->writer.note, "no thread wrote this element");
        EXPECT_NE(c.message.find("never written"), std::string::npos) << c.message;
    }
}

TEST_F(Cheats, ReturningEarlyForSmallSizesIsCaught)
{
    const SolutionReport s = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                   "{\n"
                                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    if (n < 64) return;\n"
                                   "    if (i < n) y[i] = 2 * x[i];\n"
                                   "}\n");
    EXPECT_EQ(s.cases[0].verdict, CaseOutcome::Verdict::Wrong) << text(s);
    EXPECT_EQ(s.cases[1].verdict, CaseOutcome::Verdict::Wrong) << text(s);
    EXPECT_TRUE(s.cases[1].wrong->unwritten);
    EXPECT_EQ(s.cases[2].verdict, CaseOutcome::Verdict::Pass) << text(s);
}

TEST_F(Cheats, ChangingAnInputIsCaught)
{
    const SolutionReport s = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                   "{\n"
                                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    if (i < n) { y[i] = 2 * x[i]; ((float*)x)[i] = 0; }\n"
                                   "}\n");
    for (const CaseOutcome& c : s.cases) {
        EXPECT_EQ(c.verdict, CaseOutcome::Verdict::Wrong) << text(s);
        EXPECT_EQ(c.inputsModified, std::vector<std::string>{"x"});
        EXPECT_EQ(c.message, "the kernel changed its input x");
    }
}

TEST_F(Cheats, AWrongWriteIsTracedToItsLaneAndLine)
{
    const SolutionReport s = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                   "{\n"
                                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    if (i < n)\n"
                                   "        y[i] = 2 * x[i];\n"
                                   "    if (i == 1000)\n"
                                   "        y[i] = 1.5f;\n"
                                   "}\n");
    EXPECT_EQ(s.cases[0].verdict, CaseOutcome::Verdict::Pass) << text(s);
    const CaseOutcome& c = s.cases[2];
    ASSERT_EQ(c.verdict, CaseOutcome::Verdict::Wrong) << text(s);
    EXPECT_EQ(c.wrong->index, 1000u);
    EXPECT_DOUBLE_EQ(c.wrong->got, 1.5);
    ASSERT_TRUE(c.wrong->writer.found) << text(s);
    EXPECT_EQ(c.wrong->writer.line, 7u);
    EXPECT_EQ(c.wrong->writer.block[0], 15u); // 1000 = 15 * 64 + 40
    EXPECT_EQ(c.wrong->writer.thread[0], 40u);
    EXPECT_EQ(c.wrong->writer.warp, 1u);
    EXPECT_EQ(c.wrong->writer.lane, 8u);
}

TEST_F(Cheats, InstructionLimitAndGoals)
{
    const SolutionReport slow = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                      "{\n"
                                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "    if (i >= n) return;\n"
                                      "    float v = 0;\n"
                                      "    for (int k = 0; k < 200; ++k) v += x[(i + k) % n];\n"
                                      "    y[i] = v == 12345.5f ? 0.0f : 2 * x[i];\n"
                                      "}\n");
    EXPECT_EQ(slow.cases[2].verdict, CaseOutcome::Verdict::Limit) << text(slow);
    // Each thread reads its neighbour's element 32 apart: right answers, scattered loads.
    const SolutionReport strided = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                         "{\n"
                                         "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                         "    int i = (t % 32) * 32 + t / 32 % 32 + t / 1024 * 1024;\n"
                                         "    if (i < n) y[i] = 2 * x[i];\n"
                                         "}\n");
    EXPECT_EQ(strided.cases[2].verdict, CaseOutcome::Verdict::GoalMissed) << text(strided);
    ASSERT_EQ(strided.cases[2].goals.size(), 1u);
    EXPECT_GT(strided.cases[2].goals[0].value, 2.0);
}

TEST_F(Cheats, SecretSeedChangesTheInputsNotTheVerdict)
{
    Grader a(ex, sim, compiler, true, 1), b(ex, sim, compiler, true, 2);
    const kw::Document da = a.caseDocument(ex.cases[2], kRight, "s.cu");
    const kw::Document db = b.caseDocument(ex.cases[2], kRight, "s.cu");
    const auto pa = kw::PreparedRun::fromDocument(da), pb = kw::PreparedRun::fromDocument(db);
    EXPECT_NE(pa.buffers[0].data.bytes(), pb.buffers[0].data.bytes());
    // The same seed gives the same inputs.
    const auto pa2 = kw::PreparedRun::fromDocument(a.caseDocument(ex.cases[2], kRight, "s.cu"));
    EXPECT_EQ(pa.buffers[0].data.bytes(), pa2.buffers[0].data.bytes());
    // The output starts as the sentinel, the input is read back.
    EXPECT_EQ(da.buffers[1].init.kind, kw::Initialiser::Kind::Fill);
    EXPECT_EQ(da.buffers[0].direction, kw::Direction::InOut);
    const SolutionReport ra = grade(kRight, 1), rb = grade(kRight, 2);
    EXPECT_TRUE(ra.allPassed()) << text(ra);
    EXPECT_TRUE(rb.allPassed()) << text(rb);
}

TEST_F(Cheats, AnExpressionReferenceGradesWithoutAReferenceRun)
{
    nlohmann::json j = nlohmann::json::parse(kExercise);
    j["reference"] = {{"expect", {{"y", "2 * x"}}}};
    ex = ExerciseReader::readString(j.dump());
    EXPECT_TRUE(ex.expressionReference());
    EXPECT_TRUE(ex.referenceSource.empty());
    EXPECT_TRUE(grade(kRight).allPassed()) << text(grade(kRight));
    // A wrong write is found at its line; an unwritten element and a changed input too.
    const SolutionReport wrong = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                       "{\n"
                                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                       "    if (i < n)\n"
                                       "        y[i] = i == 32 ? x[i] : 2 * x[i];\n"
                                       "}\n");
    EXPECT_EQ(wrong.cases[0].verdict, CaseOutcome::Verdict::Pass) << text(wrong);
    ASSERT_EQ(wrong.cases[1].verdict, CaseOutcome::Verdict::Wrong) << text(wrong);
    EXPECT_EQ(wrong.cases[1].wrong->index, 32u);
    EXPECT_EQ(wrong.cases[1].wrong->writer.line, 5u);
    const SolutionReport nothing = grade("__global__ void twice(int n, const float* x, float* y) { }\n");
    EXPECT_TRUE(nothing.cases[0].wrong && nothing.cases[0].wrong->unwritten) << text(nothing);
    const SolutionReport changes = grade("__global__ void twice(int n, const float* x, float* y)\n"
                                         "{\n"
                                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                         "    if (i < n) { y[i] = 2 * x[i]; ((float*)x)[i] = 0; }\n"
                                         "}\n");
    EXPECT_EQ(changes.cases[2].inputsModified, std::vector<std::string>{"x"}) << text(changes);
}
