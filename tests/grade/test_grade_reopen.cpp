// A fault that leaves a backend unusable (a GPU's context after an illegal address) must
// fail only the case that faulted: the grader opens a fresh backend for what follows.
// FragileBackend behaves as CudaBackend does after a fault, on the simulator.
#include "GradeTestSupport.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "grade/GradeReportText.hpp"
#include "sim/SimBackend.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using namespace kw::grade;

namespace {

class FragileBackend : public kw::Backend {
public:
    explicit FragileBackend(int& opened) { ++opened; }
    kw::DeviceInfo device() const override { return sim_.device(); }
    std::string compileArch() const override { return sim_.compileArch(); }
    kw::LaunchReport launch(const kw::KernelImage& kernel, std::vector<kw::BufferArg>& buffers,
                            const std::vector<kw::LaunchArg>& args, const kw::LaunchConfig& config) override
    {
        if (poisoned_)
            throw kw::Error(kw::ErrorCategory::Driver, "the context is unusable after an earlier fault");
        kw::LaunchReport r = sim_.launch(kernel, buffers, args, config);
        poisoned_ = poisoned_ || r.fault.has_value();
        return r;
    }
    bool usable() const noexcept override { return !poisoned_; }

private:
    kw::SimBackend sim_;
    bool poisoned_ = false;
};

kw::grade::Solution faulting() { return kw::test::solution(kw::test::solutionDir("add_2d") / "faulting.cu"); }
} // namespace

TEST(GradeReopen, AFaultingSolutionLeavesTheNextSolutionsCasesToBeGradedOnAFreshBackend)
{
    const Exercise ex = ExerciseReader::readFile(kw::test::exercisePath("add_2d"));
    kw::Compiler compiler(kw::ProgramCache::openDefault());
    int opened = 0;
    Grader grader(
        ex, [&opened] { return std::make_unique<FragileBackend>(opened); }, compiler, false, 0x5eed);
    const Solution reference = kw::test::solution(kw::test::solutionDir("add_2d") / "reference.cu");
    const GradeReport report = grader.grade({faulting(), reference});
    ASSERT_EQ(report.solutions.size(), 2u);

    const SolutionReport& bad = report.solutions[0];
    ASSERT_GE(bad.cases.size(), 2u);
    for (const CaseOutcome& c : bad.cases) {
        EXPECT_EQ(c.verdict, CaseOutcome::Verdict::Fault) << c.name << ": " << c.message;
        EXPECT_EQ(c.message.find("unusable"), std::string::npos) << "a later case reports the earlier fault";
    }
    EXPECT_TRUE(report.solutions[1].allPassed()) << GradeReportText::format(report);
    // One fresh backend after each faulting case, none after the reference's cases.
    EXPECT_EQ(grader.backendsReopened(), int(bad.cases.size()));
    EXPECT_EQ(opened, 1 + int(bad.cases.size()));
}

TEST(GradeReopen, WithoutAWayToOpenAnotherTheCasesAfterAFaultSaySo)
{
    const Exercise ex = ExerciseReader::readFile(kw::test::exercisePath("add_2d"));
    kw::Compiler compiler(kw::ProgramCache::openDefault());
    int opened = 0;
    FragileBackend backend(opened);
    Grader grader(ex, backend, compiler, false, 0x5eed);
    const SolutionReport bad = grader.gradeOne(faulting());
    ASSERT_GE(bad.cases.size(), 2u);
    EXPECT_EQ(bad.cases[0].verdict, CaseOutcome::Verdict::Fault);
    EXPECT_NE(bad.cases[1].verdict, CaseOutcome::Verdict::Pass);
    EXPECT_NE(bad.cases[1].message.find("unusable"), std::string::npos) << bad.cases[1].message;
}
