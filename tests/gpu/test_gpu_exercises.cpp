// Every shipped exercise graded on cuda:0 by `kwb-run grade`, as a teacher runs it: the
// reference solution (tests/data/grade) passes every case against the exercise's sealed
// reference run on the same GPU, and the planted mistake fails its case, the writer's
// line left to the simulator (said so). One process per exercise: a planted mistake that
// faults leaves the GPU's context unusable for the rest of its process (docs/exercises.md).
#include "gpu/GpuTestSupport.hpp"
#include "grade/GradeTestSupport.hpp"

using nlohmann::json;

TEST(GpuExercises, EveryReferencePassesOnTheGpu)
{
    KW_REQUIRE_GPU();
    const auto names = kw::test::exerciseNames();
    ASSERT_GE(names.size(), 10u);
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        // Shipped files, trusted: the point here is the GPU, not the sandbox for strangers.
        const auto r = kwtest::runKwb(
            {"grade", kw::test::exercisePath(name).string(), (kw::test::solutionDir(name) / "reference.cu").string(),
             (kw::test::solutionDir(name) / "wrong.cu").string(), "--device", "cuda:0", "--json", "--trust"});
        json report;
        try {
            report = json::parse(r.out);
        } catch (const std::exception&) {
            ADD_FAILURE() << "no JSON report (exit " << r.exitCode << ")\n" << r.out << r.err;
            continue;
        }
        EXPECT_EQ(r.exitCode, 4) << "the planted mistake fails\n" << r.err;
        ASSERT_EQ(report["solutions"].size(), 2u);
        const json& reference = report["solutions"][0];
        EXPECT_EQ(reference["passed"], reference["cases_total"]) << "cases passed of all\n" << reference.dump(1);
        EXPECT_FALSE(report["goals_graded"].get<bool>()) << "no goals on a GPU: the counters are the simulator's";
        const std::string wrongCase = kw::test::expectations(name)["wrong_case"];
        int seen = 0;
        for (const json& c : report["solutions"][1]["cases"]) {
            if (c["name"] != wrongCase)
                continue;
            ++seen;
            EXPECT_EQ(c["result"], "wrong") << c.dump(1);
            ASSERT_TRUE(c.contains("first_wrong")) << c.dump(1);
            EXPECT_FALSE(c["first_wrong"].contains("writer"));
            EXPECT_NE(c["first_wrong"].value("writer_note", "").find("--device sim"), std::string::npos) << c.dump(1);
        }
        EXPECT_EQ(seen, 1) << "the planted mistake's case " << wrongCase;
    }
}
