// Every sample document loads, prepares, compiles with NVRTC (no GPU needed) and
// carries checks that are evaluable and not satisfied before the kernel has run.
#include "compile/Compiler.hpp"
#include "data/DType.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/PreparedRun.hpp"
#include "util/Error.hpp"

#include "support/Samples.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kSamplesDir = KW_SAMPLES_DIR;

// Samples whose output has no exact expected value; their descriptions say why.
const std::set<std::string> kUncheckedSamples = {
    "hello_from_gpu", // printf output only
    "mandelbrot",     // iteration counts have no closed form
};

Document load(const std::string& name) { return DocumentReader::readFile(kSamplesDir / (name + ".kwb")); }

CompileResult compile(const Document& doc)
{
    CompileRequest request;
    request.source = doc.source;
    request.sourceName = doc.sourceFile.empty() ? doc.path.filename().string() : doc.sourceFile;
    request.baseDir = doc.baseDir();
    request.options = doc.options;
    request.nameExpressions = doc.kernelNames();
    return Compiler().compile(request);
}

class Sample : public testing::TestWithParam<std::string> { };

} // namespace

TEST(Samples, EverySeedProgramAndTeachingClassicIsThere)
{
    const std::vector<std::string> names = kw::test::sampleStems();
    for (const char* required : {"hello_from_gpu", "add_vectors", "add_vectors_small", "multiply_them",
                                 "gaussian_kernel", "to_device_roundtrip", "saxpy", "matmul", "reduction_shared",
                                 "reduction_shuffle", "histogram", "mandelbrot", "template_scale"})
        EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required << ".kwb is missing";
}

TEST_P(Sample, LoadsWithTitleAndDescription)
{
    const Document doc = load(GetParam());
    EXPECT_FALSE(doc.title.empty());
    EXPECT_NE(doc.description.find("## Try next"), std::string::npos)
        << "the description ends with suggestions of what to try next";
    EXPECT_FALSE(doc.source.empty());
}

TEST_P(Sample, PreparesBuffersArgumentsAndLaunch)
{
    const Document doc = load(GetParam());
    const PreparedRun run = PreparedRun::fromDocument(doc);
    EXPECT_EQ(run.buffers.size(), doc.buffers.size());
    EXPECT_EQ(run.args.size(), doc.args.size());
    EXPECT_GE(run.config.grid.volume(), 1u);
    EXPECT_LE(run.config.block.volume(), 1024u) << "no GPU runs more than 1024 threads per block";
    EXPECT_LE(run.config.sharedBytes, 48u * 1024u) << "samples stay within the shared memory every GPU has";
}

TEST_P(Sample, CompilesCleanlyAndMatchesItsArguments)
{
    const Document doc = load(GetParam());
    const CompileResult result = compile(doc);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_TRUE(result.diagnostics.empty()) << "samples compile without warnings:\n" << result.log;

    // Each launch: the one of a version-1 document, or every launch step of a document of steps.
    std::vector<std::pair<std::string, std::vector<ArgSpec>>> launches;
    if (!doc.isSequence())
        launches.emplace_back(doc.kernel, doc.args);
    std::vector<const StepSpec*> pending;
    for (const StepSpec& s : doc.steps)
        pending.push_back(&s);
    while (!pending.empty()) {
        const StepSpec* s = pending.back();
        pending.pop_back();
        if (s->kind == StepSpec::Kind::Launch)
            launches.emplace_back(s->kernel, s->args);
        for (const StepSpec& inner : s->steps)
            pending.push_back(&inner);
    }
    ASSERT_FALSE(launches.empty());
    for (const auto& [kernel, args] : launches) {
        SCOPED_TRACE(kernel);
        const auto lowered = result.loweredNames.find(kernel);
        ASSERT_NE(lowered, result.loweredNames.end()) << "no lowered name for " << kernel;
        const auto entry = std::find_if(result.entries.begin(), result.entries.end(),
                                        [&](const PtxEntry& e) { return e.name == lowered->second; });
        ASSERT_NE(entry, result.entries.end()) << "no .entry " << lowered->second << " in the PTX";

        ASSERT_EQ(entry->params.size(), args.size()) << "one document argument per kernel parameter";
        for (std::size_t a = 0; a < args.size(); ++a) {
            const ArgSpec& arg = args[a];
            const std::size_t expected = arg.isBuffer() ? sizeof(void*) : sizeOf(arg.type);
            EXPECT_EQ(entry->params[a].size, expected) << "args[" << a << "] (" << arg.name << ")";
        }
    }
}

TEST_P(Sample, ChecksEvaluateAndFailBeforeTheKernelRuns)
{
    const Document doc = load(GetParam());
    if (kUncheckedSamples.count(GetParam())) {
        EXPECT_TRUE(doc.checks.empty()) << GetParam() << " is listed as unchecked but has checks";
        return;
    }
    ASSERT_FALSE(doc.checks.empty()) << "every sample with a checkable output checks it";

    // On the untouched buffers (outputs still zero, in-place buffers still their
    // input) a meaningful check must find mismatches.
    const PreparedRun run = PreparedRun::fromDocument(doc);
    const std::vector<CheckResult> results = run.evaluateChecks(doc, &run.buffers);
    ASSERT_EQ(results.size(), doc.checks.size());
    for (std::size_t c = 0; c < results.size(); ++c) {
        const BufferSpec* target = doc.findBuffer(doc.checks[c].buffer);
        ASSERT_NE(target, nullptr);
        EXPECT_NE(target->direction, Direction::In) << "checks[" << c << "] checks an input";
        EXPECT_GT(results[c].checked, 0u);
        EXPECT_GT(results[c].mismatches, 0u)
            << "checks[" << c << "] (" << doc.checks[c].expect << ") already passes before the launch";
    }
}

INSTANTIATE_TEST_SUITE_P(All, Sample, testing::ValuesIn(kw::test::sampleStems()),
                         [](const testing::TestParamInfo<std::string>& info) { return info.param; });
