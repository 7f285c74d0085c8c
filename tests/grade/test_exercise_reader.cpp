// An exercise's reader: a good file loads with every field; a bad one fails with one
// message that names the field, as the document reader's do.
#include "grade/ExerciseReader.hpp"
#include "grade/SealedText.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

using kw::grade::ExerciseReader;
using nlohmann::json;

namespace {

json good()
{
    return json::parse(R"X({
  "format": "kernel-workbench-exercise",
  "version": 1,
  "title": "Scale",
  "statement": "Multiply by two.",
  "document": {
    "format": "kernel-workbench", "version": 1,
    "source": "__global__ void scale(int n, const float* x, float* y) { }\n",
    "kernel": "scale",
    "variables": [["n", "100"], ["block", "128"]],
    "buffers": [
      {"name": "x", "dtype": "f32", "count": "n", "init": {"kind": "uniform", "seed": 1}, "direction": "in"},
      {"name": "y", "dtype": "f32", "count": "n", "direction": "out"},
      {"name": "k", "dtype": "i32", "count": "n", "direction": "out"}
    ],
    "args": [{"type": "i32", "value": "n"}, {"buffer": "x"}, {"buffer": "y"}],
    "launch": {"grid": "cdiv(n, block)", "block": "block"}
  },
  "reference": {"source": "__global__ void scale(int n, const float* x, float* y) { int i = threadIdx.x; if (i < n) y[i] = 2 * x[i]; }\n"},
  "outputs": [{"buffer": "y", "compare": "tolerance", "atol": 0.001, "rtol": 0, "nan": "wrong"}],
  "cases": [{"name": "one", "variables": {"n": 1}, "seed": 4}, {"name": "many", "variables": {"n": "2*block"}}],
  "limits": {"instructions": 1000000, "wall_s": 5},
  "goals": [{"metric": "global_excess", "at_most": 1.1, "cases": ["many"]}]
})X");
}

// The message of reading `j` after `edit`.
std::string errorOf(const std::function<void(json&)>& edit)
{
    json j = good();
    edit(j);
    try {
        ExerciseReader::readString(j.dump());
    } catch (const kw::Error& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST(ExerciseReader, ReadsEveryField)
{
    const auto ex = ExerciseReader::readString(good().dump());
    EXPECT_EQ(ex.title, "Scale");
    EXPECT_EQ(ex.statement, "Multiply by two.");
    EXPECT_EQ(ex.document.kernel, "scale");
    EXPECT_NE(ex.referenceSource.find("2 * x[i]"), std::string::npos);
    ASSERT_EQ(ex.outputs.size(), 1u);
    EXPECT_EQ(ex.outputs[0].mode, kw::grade::OutputComparison::Mode::Tolerance);
    EXPECT_DOUBLE_EQ(ex.outputs[0].atol, 0.001);
    EXPECT_EQ(ex.outputs[0].nan, kw::grade::OutputComparison::Nan::Wrong);
    ASSERT_EQ(ex.cases.size(), 2u);
    EXPECT_EQ(ex.cases[0].size(), "n=1");
    EXPECT_EQ(ex.cases[0].seed, 4u);
    EXPECT_EQ(ex.cases[1].size(), "n=2*block");
    EXPECT_DOUBLE_EQ(ex.limits.instructions, 1e6);
    EXPECT_DOUBLE_EQ(ex.limits.wallSeconds, 5);
    ASSERT_EQ(ex.goals.size(), 1u);
    EXPECT_TRUE(ex.goals[0].appliesTo("many"));
    EXPECT_FALSE(ex.goals[0].appliesTo("one"));
    EXPECT_TRUE(ExerciseReader::isExercise(good().dump()));
    EXPECT_FALSE(ExerciseReader::isExercise(good()["document"].dump()));
}

TEST(ExerciseReader, SealedReferenceOpens)
{
    const std::string source = "__global__ void scale(int n, const float* x, float* y) { }\n";
    for (const std::string text : {std::string("a"), std::string("ab"), std::string("abc"), source})
        EXPECT_EQ(kw::grade::SealedText::open(kw::grade::SealedText::seal(text), "f"), text);
    EXPECT_EQ(kw::grade::SealedText::seal("Kernel"), "S2VybmVs"); // as base64(1) writes it
    json j = good();
    j["reference"] = {{"source_sealed", kw::grade::SealedText::seal(source)}};
    EXPECT_EQ(ExerciseReader::readString(j.dump()).referenceSource, source);
    EXPECT_EQ(errorOf([](json& j) {
                  j["reference"] = {{"source_sealed", "no*base64"}};
              }),
              "reference.source_sealed: not Base64 (the character '*')");
}

TEST(ExerciseReader, ErrorsNameTheField)
{
    EXPECT_EQ(errorOf([](json& j) { j["format"] = "kernel-workbench"; }),
              "format: must be \"kernel-workbench-exercise\"");
    EXPECT_EQ(errorOf([](json& j) { j["version"] = 7; }),
              "version: 7 is newer than this program reads (1); update Kernel Workbench");
    EXPECT_EQ(errorOf([](json& j) { j["tests"] = json::array(); }).substr(0, 19), "tests: unknown key ");
    EXPECT_EQ(errorOf([](json& j) { j.erase("document"); }).substr(0, 17), "document: missing");
    EXPECT_EQ(errorOf([](json& j) { j["document"]["kernal"] = "x"; }).substr(0, 28), "document.kernal: unknown key");
    EXPECT_EQ(errorOf([](json& j) { j.erase("reference"); }).substr(0, 18), "reference: missing");
    EXPECT_EQ(errorOf([](json& j) { j["reference"]["source_sealed"] = "eA=="; }),
              "reference: give exactly one of source, source_sealed, expect");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0].erase("nan");
                  j["reference"] = {{"expect", {{"y", "2 * q"}}}};
              }),
              "reference.expect.y: unknown name \"q\" in \"2 * q\"");
    EXPECT_EQ(errorOf([](json& j) {
                  j["reference"] = {{"expect", {{"x", "1"}}}};
              }),
              "reference.expect.x: \"x\" is not one of the outputs");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0].erase("nan");
                  j["outputs"].push_back({{"buffer", "k"}});
                  j["reference"] = {{"expect", {{"y", "2 * x"}}}};
              }),
              "outputs[1].buffer: \"k\" has no expression in reference.expect");
    EXPECT_EQ(errorOf([](json& j) {
                  j["reference"] = {{"expect", {{"y", "2 * x"}}}};
              }),
              "outputs[0].nan: \"wrong\" needs a reference kernel (reference.source)");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0] = {{"buffer", "y"}, {"compare", "ulp"}, {"ulp", 1}};
                  j["reference"] = {{"expect", {{"y", "2 * x"}}}};
              }).substr(0, 41),
              "outputs[0].compare: ulp needs a reference");
    EXPECT_EQ(errorOf([](json& j) { j["outputs"][0]["buffer"] = "z"; }),
              "outputs[0].buffer: no buffer named \"z\" in the document");
    EXPECT_EQ(errorOf([](json& j) { j["outputs"][0]["buffer"] = "x"; }),
              "outputs[0].buffer: \"x\" is an input (direction in): only out and inout buffers are outputs");
    EXPECT_EQ(errorOf([](json& j) { j["outputs"][0]["compare"] = "close"; }),
              "outputs[0].compare: \"close\" is not one of exact, tolerance, ulp");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0] = {{"buffer", "y"}, {"compare", "ulp"}};
              }).substr(0, 23),
              "outputs[0].ulp: missing");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0] = {{"buffer", "y"}, {"ulp", 2}};
              }),
              "outputs[0].ulp: only with \"compare\": \"ulp\"");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"][0] = {{"buffer", "k"}, {"compare", "ulp"}, {"ulp", 1}};
              }),
              "outputs[0].compare: ulp needs a floating-point buffer; \"k\" is i32");
    EXPECT_EQ(errorOf([](json& j) { j["outputs"][0]["nan"] = "maybe"; }),
              "outputs[0].nan: \"maybe\" is not one of match, wrong");
    EXPECT_EQ(errorOf([](json& j) { j["outputs"][0]["atol"] = -1; }), "outputs[0].atol: must not be negative");
    EXPECT_EQ(errorOf([](json& j) {
                  j["outputs"].push_back({{"buffer", "y"}});
              }),
              "outputs[1].buffer: \"y\" is listed twice");
    EXPECT_EQ(errorOf([](json& j) { j["cases"] = json::array(); }).substr(0, 14), "cases: missing");
    EXPECT_EQ(errorOf([](json& j) { j["cases"][1]["variables"]["m"] = 3; }),
              "cases[1].variables.m: the document has no variable \"m\" (variables: n, block)");
    EXPECT_EQ(errorOf([](json& j) { j["cases"][1]["name"] = "one"; }),
              "cases[1].name: \"one\" is already a case's name");
    EXPECT_EQ(errorOf([](json& j) { j["cases"][0]["seed"] = -1; }), "cases[0].seed: must be a non-negative integer");
    EXPECT_EQ(errorOf([](json& j) { j["cases"][0]["size"] = 3; }).substr(0, 23), "cases[0].size: unknown ");
    EXPECT_EQ(errorOf([](json& j) { j["limits"]["wall_s"] = 0; }), "limits.wall_s: must be positive");
    EXPECT_EQ(errorOf([](json& j) { j["limits"]["instructions"] = "many"; }), "limits.instructions: must be a number");
    EXPECT_EQ(errorOf([](json& j) { j["goals"][0]["metric"] = "speed"; }).substr(0, 41),
              "goals[0].metric: \"speed\" is not a metric ");
    EXPECT_EQ(errorOf([](json& j) { j["goals"][0].erase("at_most"); }), "goals[0]: give at_most or at_least");
    EXPECT_EQ(errorOf([](json& j) { j["goals"][0]["cases"][0] = "huge"; }),
              "goals[0].cases[0]: no case named \"huge\"");
    EXPECT_EQ(errorOf([](json& j) { (void)j; }), "(no error)");
}

TEST(ExerciseReader, BadJsonIsADocumentError)
{
    try {
        ExerciseReader::readString("{\"format\": ");
        FAIL() << "no error";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Document);
        EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
    }
}
