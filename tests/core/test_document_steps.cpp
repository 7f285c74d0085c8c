// Version-2 documents: the steps are read and written back unchanged, a version-1
// document stays one launch written as version 1, and a bad step is refused at its field.
#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"
#include "doc/PlacedChecks.hpp"
#include "doc/StepPaths.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace kw;

namespace {

const char* kSource = "__global__ void scan(float* a, int stride, int n) {}\\n"
                      "__global__ void flag(const float* a, int* f, int n) {}\\n"
                      "template <int K> __global__ void add_k(float* a, int n) {}\\n";

std::string v2(const std::string& steps, const std::string& kernels = R"J(["scan", "flag"])J",
               const std::string& extraBuffers = "")
{
    return std::string(R"({"format": "kernel-workbench", "version": 2, "source": ")") + kSource + R"(", "kernels": )"
        + kernels + R"J(, "variables": [["n", 64], ["iters", 3]],
        "buffers": [{"name": "a", "dtype": "f32", "count": "n"}, {"name": "b", "dtype": "f32", "count": "n"},
                    {"name": "f", "dtype": "i32", "count": "n"}, {"name": "small", "dtype": "f32", "count": 4})J"
        + extraBuffers + R"(], "steps": )" + steps + "}";
}

std::string errorOf(const std::string& text)
{
    try {
        DocumentReader::readString(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

const char* kEveryKind = R"J([
  {"launch": "scan", "name": "up", "grid": "cdiv(n, 32)", "block": 32, "shared_bytes": 128,
   "args": [{"name": "a", "buffer": "a"}, {"name": "stride", "type": "i32", "value": "1 << iters"}, {"name": "n", "type": "i32", "value": "n"}],
   "checks": [{"buffer": "a", "expect": "a"}]},
  {"copy": "a", "to": "b", "count": 8, "from_offset": 2, "to_offset": 4},
  {"fill": "f", "value": 0, "offset": 1, "count": 3},
  {"swap": ["a", "b"]},
  {"repeat": "iters", "index": "d", "steps": [{"swap": ["a", "b"]}]},
  {"repeat_until": "f(0) == 0", "limit": 100, "index": "level", "steps": [
     {"launch": "flag", "grid": 2, "block": 32, "args": "auto"}]}
])J";

} // namespace

TEST(DocumentSteps, EveryStepKindIsReadAndWrittenBackTheSame)
{
    const Document doc = DocumentReader::readString(v2(kEveryKind));
    ASSERT_TRUE(doc.isSequence());
    EXPECT_EQ(doc.version, 2);
    ASSERT_EQ(doc.steps.size(), 6u);
    const StepSpec& up = doc.steps[0];
    EXPECT_EQ(up.kind, StepSpec::Kind::Launch);
    EXPECT_EQ(up.kernel, "scan");
    EXPECT_EQ(up.name, "up");
    EXPECT_EQ(up.launch.grid[0], "cdiv(n, 32)");
    EXPECT_EQ(up.launch.sharedBytes, "128");
    ASSERT_EQ(up.args.size(), 3u);
    EXPECT_EQ(up.args[1].value, "1 << iters");
    ASSERT_EQ(up.checks.size(), 1u);
    EXPECT_EQ(doc.steps[1].kind, StepSpec::Kind::Copy);
    EXPECT_EQ(doc.steps[1].from, "a");
    EXPECT_EQ(doc.steps[1].to, "b");
    EXPECT_EQ(doc.steps[1].count, "8");
    EXPECT_EQ(doc.steps[1].fromOffset, "2");
    EXPECT_EQ(doc.steps[1].toOffset, "4");
    EXPECT_EQ(doc.steps[2].kind, StepSpec::Kind::Fill);
    EXPECT_EQ(doc.steps[2].to, "f");
    EXPECT_EQ(doc.steps[2].value, "0");
    EXPECT_EQ(doc.steps[3].kind, StepSpec::Kind::Swap);
    EXPECT_EQ(doc.steps[4].kind, StepSpec::Kind::Repeat);
    EXPECT_EQ(doc.steps[4].times, "iters");
    EXPECT_EQ(doc.steps[4].index, "d");
    ASSERT_EQ(doc.steps[4].steps.size(), 1u);
    const StepSpec& until = doc.steps[5];
    EXPECT_EQ(until.kind, StepSpec::Kind::RepeatUntil);
    EXPECT_EQ(until.until, "f(0) == 0");
    EXPECT_EQ(until.limit, "100");
    ASSERT_EQ(until.steps.size(), 1u);
    EXPECT_TRUE(until.steps[0].argsAuto);
    ASSERT_EQ(until.steps[0].args.size(), 3u) << "auto binds each parameter by name";
    EXPECT_EQ(until.steps[0].args[1].buffer, "f");

    const std::string written = DocumentWriter::toString(doc);
    EXPECT_NE(written.find("\"version\": 2"), std::string::npos);
    const Document again = DocumentReader::readString(written);
    EXPECT_EQ(DocumentWriter::toString(again), written);
}

TEST(DocumentSteps, AVersionOneDocumentIsOneLaunchAndStaysVersionOne)
{
    const std::string v1 = R"J({"format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(float* a) {}", "kernel": "k",
      "buffers": [{"name": "a", "dtype": "f32", "count": 4}], "args": [{"buffer": "a"}],
      "launch": {"grid": 1, "block": 4}})J";
    const Document doc = DocumentReader::readString(v1);
    EXPECT_FALSE(doc.isSequence());
    EXPECT_EQ(doc.kernelNames(), std::vector<std::string>{"k"});
    const std::string written = DocumentWriter::toString(doc);
    EXPECT_NE(written.find("\"version\": 1"), std::string::npos);
    EXPECT_EQ(written.find("steps"), std::string::npos);
}

TEST(DocumentSteps, ALaunchOfAKernelTheDocumentDoesNotListIsRefusedAtItsField)
{
    EXPECT_EQ(errorOf(v2(R"J([{"launch": "nope", "grid": 1, "block": 1, "args": []}])J")),
              "steps[0].launch: \"nope\" is not one of the document's kernels (scan, flag)");
}

TEST(DocumentSteps, AListedKernelMustBeOfTheSource)
{
    EXPECT_NE(errorOf(v2(R"J([{"swap": ["a", "b"]}])J", R"J(["scan", "missing"])J"))
                  .find("kernels[1]: \"missing\" is not a __global__ function of the source"),
              std::string::npos);
}

TEST(DocumentSteps, TemplateInstantiationsAreListedKernels)
{
    const Document doc = DocumentReader::readString(v2(
        R"J([{"launch": "add_k<3>", "grid": 1, "block": 1, "args": [{"buffer": "a"}, {"type": "i32", "value": "n"}]}])J",
        R"J(["add_k<3>"])J"));
    EXPECT_EQ(doc.kernelNames(), std::vector<std::string>{"add_k<3>"});
}

TEST(DocumentSteps, ArgumentsAreCheckedAgainstTheStepsKernel)
{
    EXPECT_EQ(errorOf(v2(R"J([{"launch": "scan", "grid": 1, "block": 1, "args": [{"buffer": "a"}]}])J")),
              "steps[0].args: the kernel scan has 3 parameters (float * a, int stride, int n), the document gives 1");
}

TEST(DocumentSteps, ASwapOfBuffersOfDifferentShapesIsRefused)
{
    EXPECT_EQ(errorOf(v2(R"J([{"swap": ["a", "small"]}])J")),
              "steps[0].swap: \"a\" has 64 elements of f32, \"small\" 4 elements of f32; a swap exchanges buffers of "
              "one shape and dtype");
    EXPECT_EQ(errorOf(v2(R"J([{"swap": ["a", "f"]}])J")),
              "steps[0].swap: \"a\" has 64 elements of f32, \"f\" 64 elements of i32; a swap exchanges buffers of "
              "one shape and dtype");
}

TEST(DocumentSteps, ALoopUntilAConditionNeedsALimit)
{
    EXPECT_EQ(errorOf(v2(R"J([{"repeat_until": "f(0) == 0", "steps": [{"swap": ["a", "b"]}]}])J")),
              "steps[0].limit: missing: a repeat_until needs a limit on its passes, so that a condition that never "
              "holds stops the run");
}

TEST(DocumentSteps, UnknownNamesInStepExpressionsAreRefusedAtTheField)
{
    EXPECT_NE(errorOf(v2(R"J([{"repeat": "times", "steps": [{"swap": ["a", "b"]}]}])J")).find("steps[0].repeat"),
              std::string::npos);
    EXPECT_NE(errorOf(v2(R"J([{"repeat_until": "g(0) == 0", "limit": 4, "steps": [{"swap": ["a", "b"]}]}])J"))
                  .find("steps[0].repeat_until"),
              std::string::npos);
    // The pass index is known inside the repeat only.
    EXPECT_NE(errorOf(v2(R"J([{"repeat": 2, "index": "d", "steps": [{"swap": ["a", "b"]}]},
                             {"fill": "a", "value": "d"}])J"))
                  .find("steps[1].value"),
              std::string::npos);
}

TEST(DocumentSteps, AStepIsExactlyOneKind)
{
    EXPECT_EQ(errorOf(v2(R"J([{"swap": ["a", "b"], "fill": "a", "value": 0}])J")),
              "steps[0]: a step is one of launch, copy, fill, swap, repeat, repeat_until; this one says fill and swap");
    EXPECT_EQ(errorOf(v2(R"J([{"name": "x"}])J")),
              "steps[0]: a step needs one of launch, copy, fill, swap, repeat, repeat_until");
}

TEST(DocumentSteps, CopiesNameBuffersOfOneDtypeAndWholeCopiesOneSize)
{
    EXPECT_EQ(errorOf(v2(R"J([{"copy": "a", "to": "f"}])J")),
              "steps[0]: \"a\" is f32 and \"f\" is i32; a copy moves elements of one dtype");
    EXPECT_EQ(errorOf(v2(R"J([{"copy": "a", "to": "small"}])J")),
              "steps[0].count: missing: \"a\" has 64 elements and \"small\" 4; say how many to copy");
    EXPECT_EQ(errorOf(v2(R"J([{"copy": "a", "to": "zz"}])J")), "steps[0].to: no buffer named \"zz\"");
}

TEST(DocumentSteps, StepsBelongToVersionTwo)
{
    const std::string v1 = R"J({"format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(float* a) {}", "kernels": ["k"], "steps": []})J";
    EXPECT_EQ(errorOf(v1), "steps: needs \"version\": 2 (a document of steps)");
    EXPECT_EQ(errorOf(v2(R"J([{"swap": ["a", "b"]}])J").insert(1, R"("kernel": "scan", )")),
              "kernel: a document of steps names its kernels in \"kernels\" and launches them in \"steps\"");
}

TEST(DocumentSteps, RunGraphIsOnUnlessTheDocumentTurnsItOffAndIsWrittenOnlyWhenOff)
{
    const std::string steps = R"J([{"repeat": 2, "steps": [{"swap": ["a", "b"]}]}])J";
    const Document on = DocumentReader::readString(v2(steps));
    EXPECT_TRUE(on.run.graph);
    EXPECT_EQ(DocumentWriter::toString(on).find("\"graph\""), std::string::npos);

    std::string text = v2(steps);
    text.insert(text.size() - 1, R"(, "run": {"graph": false})");
    const Document off = DocumentReader::readString(text);
    EXPECT_FALSE(off.run.graph);
    const std::string written = DocumentWriter::toString(off);
    EXPECT_NE(written.find("\"graph\": false"), std::string::npos) << written;
    EXPECT_FALSE(DocumentReader::readString(written).run.graph);

    std::string wrong = v2(steps);
    wrong.insert(wrong.size() - 1, R"(, "run": {"graph": 0})");
    EXPECT_NE(errorOf(wrong).find("run.graph"), std::string::npos) << errorOf(wrong);
}

TEST(DocumentSteps, EveryCheckIsListedWithItsStepAndPlacedBackThere)
{
    Document doc = DocumentReader::readString(v2(kEveryKind));
    EXPECT_EQ(StepPaths::find(doc.steps, "5.1"), &doc.steps[4].steps[0]);
    EXPECT_EQ(StepPaths::find(doc.steps, "6"), &doc.steps[5]);
    for (const char* none : {"", "0", "7", "5.2", "1.1", "5.", "x", "5.1.1"})
        EXPECT_EQ(StepPaths::find(doc.steps, none), nullptr) << none;

    std::vector<PlacedCheck> checks = PlacedChecks::list(doc);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].step, "1");
    checks.push_back({"", {"a", "a + 1"}});
    checks.push_back({"5.1", {"b", "b + d"}}); // the repeat's index is a name inside it
    checks.push_back({"6", {"f", "level"}});   // and after the repeat itself
    PlacedChecks::place(doc, checks);
    ASSERT_EQ(doc.checks.size(), 1u);
    EXPECT_EQ(doc.checks[0].expect, "a + 1");
    ASSERT_EQ(doc.steps[4].steps[0].checks.size(), 1u);
    EXPECT_EQ(doc.steps[4].steps[0].checks[0].expect, "b + d");
    ASSERT_EQ(doc.steps[5].checks.size(), 1u);

    // Written and read back (and validated by the reader), listed in the steps' order.
    const Document back = DocumentReader::readString(DocumentWriter::toString(doc));
    const std::vector<PlacedCheck> listed = PlacedChecks::list(back);
    ASSERT_EQ(listed.size(), 4u);
    EXPECT_EQ(listed[0].step, "1");
    EXPECT_EQ(listed[1].step, "5.1");
    EXPECT_EQ(listed[2].step, "6");
    EXPECT_EQ(listed[3].step, "");
    EXPECT_EQ(listed[3].check.expect, "a + 1");
    EXPECT_NO_THROW(DocumentValidator::validateCheck(back, 0, "5.1"));
    EXPECT_NO_THROW(DocumentValidator::validateCheck(back, 0, "6"));
    EXPECT_NO_THROW(DocumentValidator::validateCheck(back, 0));

    // Out of the repeat its index is no name: refused at the check's field, live and on reading.
    Document moved = back;
    PlacedChecks::place(moved, {{"4", {"b", "b + d"}}});
    EXPECT_TRUE(moved.checks.empty());
    EXPECT_TRUE(moved.steps[0].checks.empty());
    try {
        DocumentValidator::validateCheck(moved, 0, "4");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("steps[3].checks[0].expect"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("\"d\""), std::string::npos) << e.what();
    }
    EXPECT_NE(errorOf(DocumentWriter::toString(moved)).find("steps[3].checks[0].expect"), std::string::npos)
        << errorOf(DocumentWriter::toString(moved));
    // An empty expectation is one for a step's check too.
    PlacedChecks::place(moved, {{"5.1", {"b", " "}}});
    EXPECT_THROW(DocumentValidator::validateCheck(moved, 0, "5.1"), Error);

    // A path that names no step changes nothing.
    Document kept = back;
    EXPECT_THROW(PlacedChecks::place(kept, {{"7", {"a", "a"}}}), Error);
    EXPECT_EQ(DocumentWriter::toString(kept), DocumentWriter::toString(back));
}
