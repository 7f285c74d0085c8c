// The grade as JUnit XML: read back with pugixml, in the structure JUnit consumers
// (CI servers, gradebooks) expect: <testsuites> totals, one <testsuite> per solution
// with its counts, one <testcase> per case, <failure> for a wrong answer or a missed goal,
// <error> for what did not run.
#include "grade/JunitWriter.hpp"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <string>

using namespace kw::grade;

namespace {

GradeReport report()
{
    GradeReport r;
    r.exercise = "Reverse <an> array & more";
    r.device = "CPU simulator";
    r.secretSeed = 42;
    SolutionReport good;
    good.solution = "alice.cu";
    good.ms = 1500;
    for (const char* name : {"n=1", "n=2"}) {
        CaseOutcome c;
        c.name = name;
        c.ms = 750;
        good.cases.push_back(c);
    }
    SolutionReport bad;
    bad.solution = "bob.cu";
    bad.ms = 20;
    CaseOutcome wrong;
    wrong.name = "n=1";
    wrong.verdict = CaseOutcome::Verdict::Wrong;
    wrong.message = "out[0] = 3, expected 4 (exact)";
    WrongElement w;
    w.buffer = "out";
    w.writer.found = true;
    w.writer.file = "bob.cu";
    w.writer.line = 7;
    wrong.wrong = w;
    CaseOutcome goal;
    goal.name = "n=2";
    goal.verdict = CaseOutcome::Verdict::GoalMissed;
    goal.message = "bank_conflicts 31 (goal: at most 0)";
    CaseOutcome compile;
    compile.name = "n=3";
    compile.verdict = CaseOutcome::Verdict::CompileError;
    compile.message = "bob.cu:2: expected a \";\"";
    bad.cases = {wrong, goal, compile};
    r.solutions = {good, bad};
    return r;
}

} // namespace

TEST(JunitWriter, OneTestsuitePerSolution)
{
    const std::string xml = JunitWriter::toXml(report());
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
    const auto root = doc.child("testsuites");
    ASSERT_TRUE(root) << xml;
    EXPECT_STREQ(root.attribute("name").value(), "Reverse <an> array & more");
    EXPECT_EQ(root.attribute("tests").as_int(), 5);
    EXPECT_EQ(root.attribute("failures").as_int(), 2);
    EXPECT_EQ(root.attribute("errors").as_int(), 1);

    std::vector<pugi::xml_node> suites;
    for (auto s : root.children("testsuite"))
        suites.push_back(s);
    ASSERT_EQ(suites.size(), 2u);
    EXPECT_STREQ(suites[0].attribute("name").value(), "alice.cu");
    EXPECT_EQ(suites[0].attribute("tests").as_int(), 2);
    EXPECT_EQ(suites[0].attribute("failures").as_int(), 0);
    EXPECT_EQ(suites[0].attribute("errors").as_int(), 0);
    EXPECT_DOUBLE_EQ(suites[0].attribute("time").as_double(), 1.5);
    EXPECT_STREQ(suites[0]
                     .child("properties")
                     .find_child_by_attribute("property", "name", "secret_seed")
                     .attribute("value")
                     .value(),
                 "42");
    for (auto tc : suites[0].children("testcase")) {
        EXPECT_FALSE(tc.child("failure"));
        EXPECT_FALSE(tc.child("error"));
        EXPECT_DOUBLE_EQ(tc.attribute("time").as_double(), 0.75);
        EXPECT_STREQ(tc.attribute("classname").value(), "Reverse <an> array & more.alice.cu");
    }

    EXPECT_STREQ(suites[1].attribute("name").value(), "bob.cu");
    EXPECT_EQ(suites[1].attribute("tests").as_int(), 3);
    EXPECT_EQ(suites[1].attribute("failures").as_int(), 2);
    EXPECT_EQ(suites[1].attribute("errors").as_int(), 1);
    std::vector<pugi::xml_node> cases;
    for (auto tc : suites[1].children("testcase"))
        cases.push_back(tc);
    ASSERT_EQ(cases.size(), 3u);
    const auto failure = cases[0].child("failure");
    ASSERT_TRUE(failure);
    EXPECT_STREQ(failure.attribute("type").value(), "wrong");
    EXPECT_STREQ(failure.attribute("message").value(), "out[0] = 3, expected 4 (exact)");
    EXPECT_NE(std::string(failure.text().get()).find("at bob.cu:7"), std::string::npos);
    EXPECT_STREQ(cases[1].child("failure").attribute("type").value(), "goal missed");
    const auto error = cases[2].child("error");
    ASSERT_TRUE(error);
    EXPECT_FALSE(cases[2].child("failure"));
    EXPECT_STREQ(error.attribute("message").value(), "bob.cu:2: expected a \";\"");
}
