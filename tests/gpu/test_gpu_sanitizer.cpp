// --check on cuda:0: each document of tests/data/docs/checks/ with a planted fault
// runs under compute-sanitizer's tool for it (serve/SanitizedRun, through RunEngine
// as kwb-run runs it), and the tool finds the fault at the line marked "planted",
// with the right kind; a clean document gives no finding under any tool; and a
// missing compute-sanitizer is a clear message.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "run/DeviceSelector.hpp"
#include "run/RunEngine.hpp"
#include "serve/SanitizedRun.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>

using namespace kwtest;
using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kChecks = fs::path(KW_TEST_DATA_DIR) / "docs" / "checks";

// The 1-based line of the source that holds `marker`; 0 when none does.
int lineOf(const std::string& source, const std::string& marker)
{
    std::istringstream in(source);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.find(marker) != std::string::npos)
            return n;
    }
    return 0;
}

SanitizedRunOptions options()
{
    SanitizedRunOptions o;
    o.kwbRun = fs::path(KW_BIN_DIR) / "kwb-run";
    return o;
}

// Why the checks cannot run here, or empty.
std::string noSanitizerReason()
{
    const SanitizerSearch s = SanitizerSearch::fromEnvironment();
    return ComputeSanitizerLocator::find(s) ? std::string() : ComputeSanitizerLocator::notFoundMessage(s);
}

#define KW_REQUIRE_SANITIZER()                                                                                         \
    do {                                                                                                               \
        KW_REQUIRE_GPU();                                                                                              \
        const std::string whyNot = noSanitizerReason();                                                                \
        if (!whyNot.empty())                                                                                           \
            GTEST_SKIP() << whyNot;                                                                                    \
    } while (0)

RunResult checkedRun(const Document& doc, CheckTool tool, SanitizedRunOptions o = options())
{
    Compiler compiler;
    const auto gpu = DeviceSelector::open(DeviceSelector::parse("cuda:0"), nullptr);
    SanitizedRun sanitizer(std::move(o));
    RunEngine engine(compiler, *gpu);
    engine.setExternalCheck(&sanitizer);
    RunOverrides overrides;
    overrides.check = tool;
    return engine.run(doc, overrides);
}

std::string describe(const RunResult& r)
{
    std::string s = fmt::format("{} finding(s){}:\n", r.findings.size(),
                                r.fault ? " and fault " + std::string(toString(r.fault->kind)) : std::string());
    for (const auto& f : r.findings)
        s += fmt::format("  [{} x{}] {} (file {}, line {})\n", f.kind, f.count, f.message, f.file, f.line);
    for (const auto& w : r.warnings)
        s += "  warning: " + w + "\n";
    return s;
}

struct Planted {
    const char* document;
    CheckTool tool;
    const char* kind;
};

const Planted kPlanted[] = {
    {"oob_write.kwb", CheckTool::Memcheck, "out of bounds write"},
    {"misaligned.kwb", CheckTool::Memcheck, "misaligned write"},
    {"shared_race.kwb", CheckTool::Racecheck, "shared-memory race"},
    {"uninit_read.kwb", CheckTool::Initcheck, "uninitialized read"},
    {"divergent_barrier.kwb", CheckTool::Synccheck, "divergent barrier"},
};

class GpuSanitizer : public ::testing::TestWithParam<Planted> { };

} // namespace

TEST_P(GpuSanitizer, FindsThePlantedFaultAtItsLine)
{
    KW_REQUIRE_SANITIZER();
    const Planted& p = GetParam();
    const Document doc = DocumentReader::readFile(kChecks / p.document);
    const int line = lineOf(doc.source, "planted");
    ASSERT_GT(line, 0) << "the document marks its fault";

    const RunResult r = checkedRun(doc, p.tool);
    std::printf("%s under %s: %s", p.document, toString(p.tool), describe(r).c_str());
    EXPECT_EQ(r.check, p.tool);
    EXPECT_TRUE(r.compile.ok) << r.compile.log;
    EXPECT_EQ(r.device.id, "cuda:0");
    EXPECT_FALSE(r.ok) << "a finding fails the run";
    const auto found = std::find_if(r.findings.begin(), r.findings.end(),
                                    [&](const CheckFinding& f) { return f.kind == p.kind && f.line == line; });
    ASSERT_NE(found, r.findings.end()) << "no " << p.kind << " at line " << line << "; " << describe(r);
    const CheckFinding& f = *found;
    EXPECT_EQ(f.tool, p.tool);
    EXPECT_EQ(f.file, "kernel.cu") << "the inline source, as the compiler names it";
    EXPECT_GE(f.count, 1u);
    EXPECT_NE(f.message.find(fmt::format("kernel.cu:{}", line)), std::string::npos) << f.message;
    ASSERT_TRUE(f.block) << f.message;
    EXPECT_EQ(*f.block, (Dim3{0, 0, 0}));
    if (p.tool != CheckTool::Synccheck)
        EXPECT_TRUE(f.address) << f.message;
    EXPECT_TRUE(f.thread) << f.message;
    if (std::string(p.document) == "oob_write.kwb") {
        EXPECT_EQ(*f.thread, (Dim3{64, 0, 0})) << "thread n writes out[n]";
        EXPECT_EQ(f.count, 1u);
    }
    if (p.tool == CheckTool::Racecheck) {
        const int write = lineOf(doc.source, "written here");
        EXPECT_NE(f.message.find(fmt::format("kernel.cu:{}", write)), std::string::npos)
            << "names the write it races with: " << f.message;
    }
    if (p.tool == CheckTool::Synccheck)
        EXPECT_EQ(f.count, 16u) << "threads 0 to 15 wait at the barrier";
}

INSTANTIATE_TEST_SUITE_P(Planted, GpuSanitizer, ::testing::ValuesIn(kPlanted), [](const auto& info) {
    std::string name = info.param.document;
    return name.substr(0, name.find('.'));
});

TEST(GpuSanitizerClean, ACleanDocumentGivesNoFindingUnderAnyTool)
{
    KW_REQUIRE_SANITIZER();
    const Document doc = DocumentReader::readFile(kChecks / "clean.kwb");
    for (CheckTool tool : {CheckTool::Memcheck, CheckTool::Racecheck, CheckTool::Initcheck, CheckTool::Synccheck}) {
        SCOPED_TRACE(toString(tool));
        const RunResult r = checkedRun(doc, tool);
        std::printf("clean.kwb under %s: %s", toString(tool), describe(r).c_str());
        EXPECT_EQ(r.check, tool);
        EXPECT_TRUE(r.findings.empty()) << describe(r);
        // No finding because the tool ran and its report says so, not because it wrote none.
        const auto said = [&](const std::string& words) {
            return std::any_of(r.warnings.begin(), r.warnings.end(),
                               [&](const std::string& w) { return w.find(words) != std::string::npos; });
        };
        EXPECT_FALSE(said("wrote no report")) << describe(r);
        EXPECT_TRUE(said("instrumented by compute-sanitizer")) << describe(r);
        EXPECT_FALSE(r.fault);
        ASSERT_EQ(r.checks.size(), 1u);
        EXPECT_TRUE(r.checks[0].passed);
        EXPECT_TRUE(r.ok) << describe(r);
        ASSERT_EQ(r.buffers.size(), 2u);
        EXPECT_EQ(r.buffers[1].data.count(), 256u) << "the outputs come back";
        EXPECT_EQ(r.buffers[1].data.at(0), 126.0);
        EXPECT_EQ(r.buffers[0].data.at(5), 5.0) << "and the inputs";
    }
}

TEST(GpuSanitizerMissing, WithoutComputeSanitizerTheMessageSaysWhatToDo)
{
    KW_REQUIRE_GPU();
    // PATH cleared, no toolkit variables, and no toolkit folder that holds the tool.
    std::optional<std::string> saved[4];
    const char* names[4] = {"PATH", "CUDA_HOME", "CUDA_PATH", "KWB_COMPUTE_SANITIZER"};
    for (int i = 0; i < 4; ++i)
        if (const char* v = std::getenv(names[i]))
            saved[i] = v;
    setenv("PATH", "", 1);
    for (int i = 1; i < 4; ++i)
        unsetenv(names[i]);
    SanitizedRunOptions o = options();
    o.search = SanitizerSearch::fromEnvironment();
    for (int i = 0; i < 4; ++i) {
        if (saved[i])
            setenv(names[i], saved[i]->c_str(), 1);
        else
            unsetenv(names[i]);
    }
    o.search.toolkits = {"/nonexistent/cuda"};
    o.search.folders.clear();

    try {
        checkedRun(DocumentReader::readFile(kChecks / "oob_write.kwb"), CheckTool::Memcheck, o);
        FAIL() << "no error";
    } catch (const Error& e) {
        const std::string m = e.what();
        std::printf("%s\n", m.c_str());
        EXPECT_EQ(e.category(), ErrorCategory::Usage);
        EXPECT_NE(m.find("compute-sanitizer was not found"), std::string::npos) << m;
        EXPECT_NE(m.find("PATH (empty)"), std::string::npos) << m;
        EXPECT_NE(m.find("/nonexistent/cuda/bin"), std::string::npos) << m;
        EXPECT_NE(m.find("install the CUDA Toolkit's compute-sanitizer"), std::string::npos) << m;
        EXPECT_NE(m.find("--device sim, whose checks need no GPU"), std::string::npos) << m;
    }
}
