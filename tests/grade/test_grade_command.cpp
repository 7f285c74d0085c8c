// `kwb-run grade` as a command: exit code 0 when every case passed, 4 otherwise; --json
// is one object with a solution per file given; --junit writes the XML; --seed fixes the
// secret seed, which the report records; no solution grades the starter.
#include "GradeTestSupport.hpp"

#include "grade/GradeCommand.hpp"
#include "run/ExitCode.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <cstdio>

using namespace kw::grade;

namespace {

struct Output {
    int code = -1;
    std::string text;
};

Output run(GradeCommandOptions options)
{
    std::FILE* out = std::tmpfile();
    Output o;
    o.code = GradeCommand(options, out).execute();
    std::rewind(out);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, out)) > 0)
        o.text.append(buffer, n);
    std::fclose(out);
    return o;
}

GradeCommandOptions options(std::vector<std::string> solutions)
{
    GradeCommandOptions o;
    o.exercise = kw::test::exercisePath("reverse").string();
    for (const auto& s : solutions)
        o.solutions.push_back((kw::test::solutionDir("reverse") / s).string());
    return o;
}

} // namespace

TEST(GradeCommand, ExitCodesAndText)
{
    const Output pass = run(options({"reference.cu"}));
    EXPECT_EQ(pass.code, kw::ExitCode::Ok) << pass.text;
    EXPECT_NE(pass.text.find("11/11 cases passed"), std::string::npos) << pass.text;
    const Output fail = run(options({"reference.cu", "wrong.cu"}));
    EXPECT_EQ(fail.code, kw::ExitCode::CheckFailed) << fail.text;
    EXPECT_NE(fail.text.find("at wrong.cu:5"), std::string::npos) << fail.text;
    EXPECT_NE(fail.text.find("over 2 solutions"), std::string::npos) << fail.text;
    // No solution: the starter, which writes nothing.
    const Output starter = run(options({}));
    EXPECT_EQ(starter.code, kw::ExitCode::CheckFailed);
    EXPECT_NE(starter.text.find("starter"), std::string::npos);
    EXPECT_NE(starter.text.find("was never written"), std::string::npos) << starter.text;
}

TEST(GradeCommand, JsonAndJunit)
{
    const auto dir = kw::test::freshDir("grade-command", "junit");
    GradeCommandOptions o = options({"reference.cu", "wrong.cu"});
    o.json = true;
    o.seed = 1234;
    o.junit = (dir / "out.xml").string();
    const Output r = run(o);
    EXPECT_EQ(r.code, kw::ExitCode::CheckFailed);
    const auto j = nlohmann::json::parse(r.text);
    EXPECT_EQ(j["secret_seed"], 1234u);
    EXPECT_EQ(j["goals_graded"], true);
    ASSERT_EQ(j["solutions"].size(), 2u);
    EXPECT_EQ(j["solutions"][0]["passed"], 11);
    const auto& wrong = j["solutions"][1];
    bool found = false;
    for (const auto& c : wrong["cases"])
        if (c["name"] == "n=3") {
            found = true;
            EXPECT_EQ(c["result"], "wrong");
            EXPECT_EQ(c["first_wrong"]["writer"]["line"], 5);
            EXPECT_EQ(c["first_wrong"]["writer"]["file"], "wrong.cu");
        }
    EXPECT_TRUE(found);
    const std::string xml = kw::test::readTextFile(dir / "out.xml");
    EXPECT_NE(xml.find("<testsuites"), std::string::npos);
    EXPECT_NE(xml.find("value=\"1234\""), std::string::npos);
}
