// Every shipped exercise, graded on the simulator: its reference solution passes every
// case, and its planted wrong solution fails the case it was written to fail, with the
// line of the wrong write found. Where the exercise has goals on the counters, a solution
// with right outputs that misses them (goal.cu) is graded "goal missed".
#include "GradeTestSupport.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "grade/GradeReportText.hpp"
#include "sim/SimBackend.hpp"
#include "util/Elapsed.hpp"

#include <gtest/gtest.h>

#include <cstdio>

using namespace kw::grade;

class ShippedExercise : public testing::TestWithParam<std::string> {
protected:
    SolutionReport grade(const std::string& file)
    {
        const Exercise ex = ExerciseReader::readFile(kw::test::exercisePath(GetParam()));
        kw::SimBackend sim;
        kw::Compiler compiler(kw::ProgramCache::openDefault());
        Grader grader(ex, sim, compiler, true, 0x5eed);
        return grader.gradeOne(kw::test::solution(kw::test::solutionDir(GetParam()) / file));
    }
    static std::string text(const SolutionReport& s)
    {
        GradeReport r;
        r.solutions = {s};
        r.goalsGraded = true;
        return GradeReportText::format(r);
    }
};

TEST_P(ShippedExercise, ReferencePassesEveryCase)
{
    const auto t0 = kw::SteadyClock::now();
    const SolutionReport s = grade("reference.cu");
    const double ms = kw::msSince(t0);
    EXPECT_TRUE(s.allPassed()) << text(s);
    EXPECT_GE(s.cases.size(), 3u);
    std::printf("%s: %zu cases graded in %.2f s\n", GetParam().c_str(), s.cases.size(), ms / 1000);
}

TEST_P(ShippedExercise, PlantedMistakeIsFoundAtItsLine)
{
    const nlohmann::json expect = kw::test::expectations(GetParam());
    const SolutionReport s = grade("wrong.cu");
    const std::string wrongCase = expect["wrong_case"];
    const auto it
        = std::find_if(s.cases.begin(), s.cases.end(), [&](const CaseOutcome& c) { return c.name == wrongCase; });
    ASSERT_NE(it, s.cases.end()) << "no case " << wrongCase;
    EXPECT_EQ(it->verdict, CaseOutcome::Verdict::Wrong) << text(s);
    ASSERT_TRUE(it->wrong) << text(s);
    EXPECT_TRUE(it->wrong->writer.found) << text(s);
    EXPECT_EQ(it->wrong->writer.file, "wrong.cu");
    EXPECT_EQ(int(it->wrong->writer.line), expect["wrong_line"].get<int>()) << text(s);
    if (expect.contains("goal_wrong")) {
        const SolutionReport g = grade("goal.cu");
        const std::string goalCase = expect["goal_wrong"];
        for (const CaseOutcome& c : g.cases) {
            if (c.name == goalCase)
                EXPECT_EQ(c.verdict, CaseOutcome::Verdict::GoalMissed) << text(g);
            else
                EXPECT_TRUE(c.verdict == CaseOutcome::Verdict::Pass || c.verdict == CaseOutcome::Verdict::GoalMissed)
                    << text(g);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Exercises, ShippedExercise, testing::ValuesIn(kw::test::exerciseNames()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });
