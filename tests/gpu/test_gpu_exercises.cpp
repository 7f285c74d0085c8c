// Every shipped exercise graded on cuda:0: the reference solution (tests/data/grade) passes
// every case against the exercise's sealed reference run on the same GPU, and the planted
// mistake fails its case, the writer's line left to the simulator (said so).
#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "grade/GradeReportText.hpp"
#include "grade/GradeTestSupport.hpp"
#include "run/DeviceSelector.hpp"

using namespace kw::grade;

TEST(GpuExercises, EveryReferencePassesOnTheGpu)
{
    KW_REQUIRE_GPU();
    const auto backend = kw::DeviceSelector::open(kw::DeviceSelector::parse("cuda:0"), nullptr);
    kw::Compiler compiler(kw::ProgramCache::openDefault());
    const auto names = kw::test::exerciseNames();
    ASSERT_GE(names.size(), 10u);
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        // Shipped files, trusted: the point here is the GPU, not the sandbox for strangers.
        const Exercise ex = ExerciseReader::readFile(kw::test::exercisePath(name), kw::Trust::Trusted);
        Grader grader(ex, *backend, compiler, false, Grader::randomSeed());
        GradeReport report = grader.grade({kw::test::solution(kw::test::solutionDir(name) / "reference.cu"),
                                           kw::test::solution(kw::test::solutionDir(name) / "wrong.cu")});
        EXPECT_TRUE(report.solutions[0].allPassed()) << GradeReportText::format(report);
        const std::string wrongCase = kw::test::expectations(name)["wrong_case"];
        for (const CaseOutcome& c : report.solutions[1].cases) {
            if (c.name != wrongCase)
                continue;
            EXPECT_EQ(c.verdict, CaseOutcome::Verdict::Wrong) << GradeReportText::format(report);
            ASSERT_TRUE(c.wrong);
            EXPECT_FALSE(c.wrong->writer.found);
            EXPECT_NE(c.wrong->writer.note.find("--device sim"), std::string::npos);
        }
        // No goals on a GPU: the counters are the simulator's.
        EXPECT_FALSE(report.goalsGraded);
        for (const CaseOutcome& c : report.solutions[0].cases)
            EXPECT_TRUE(c.goals.empty());
    }
}
