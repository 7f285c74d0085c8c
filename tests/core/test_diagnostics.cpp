#include "compile/Compiler.hpp"
#include "compile/DiagnosticParser.hpp"
#include "compile/MissingTokenLocator.hpp"
#include "support/TextFile.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kLogDir = fs::path(KW_TEST_DATA_DIR) / "nvrtc_logs";

nlohmann::json table() { return nlohmann::json::parse(test::readTextFile(kLogDir / "expected.json")); }

void expectMatches(const std::vector<Diagnostic>& got, const nlohmann::json& want, const std::string& name,
                   bool fileByName)
{
    ASSERT_EQ(got.size(), want.size()) << name;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const auto& g = got[i];
        const auto& w = want[i];
        SCOPED_TRACE(name + " #" + std::to_string(i));
        std::string file = w["file"];
        if (fileByName)
            EXPECT_EQ(fs::path(g.file).filename(), fs::path(file).filename());
        else
            EXPECT_EQ(g.file, file);
        EXPECT_EQ(g.line, w["line"].get<int>());
        EXPECT_EQ(g.column, w["column"].get<int>());
        EXPECT_EQ(toString(g.severity), w["severity"].get<std::string>());
        EXPECT_EQ(g.code, w["code"].get<std::string>());
        EXPECT_EQ(g.message, w["message"].get<std::string>());
        EXPECT_EQ(g.notes, w["notes"].get<std::vector<std::string>>());
    }
}

} // namespace

TEST(Diagnostics, TableOfRealLogs)
{
    auto t = table();
    ASSERT_GE(t.size(), 10u);
    for (const auto& [name, entry] : t.items())
        expectMatches(parseNvrtcLog(test::readTextFile(kLogDir / (name + ".log"))), entry["diagnostics"], name, false);
}

TEST(Diagnostics, TableStillMatchesThisNvrtc)
{
    // NVRTC is a build prerequisite: without it this fails (compile() throws).
    Compiler compiler;
    auto t = table();
    for (const auto& [name, entry] : t.items()) {
        CompileRequest req;
        req.source = test::readTextFile(kLogDir / (name + ".cu"));
        req.sourceName = name + ".cu";
        req.baseDir = kLogDir;
        req.options.includeDirs = {"inc"};
        req.options.tagPrintf = false;
        req.trust = Trust::Trusted; // the logs' own options, bad ones included, reach NVRTC
        req.options.extra = entry["options"].get<std::vector<std::string>>();
        req.options.arch = entry.value("arch", "");
        auto r = compiler.compile(req);
        // The table holds the log as NVRTC writes it; the compiler's own moves
        // (MissingTokenLocator) are tested below.
        expectMatches(parseNvrtcLog(r.log), entry["diagnostics"], name, true);
        bool hasError = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.severity == Severity::Error; });
        EXPECT_EQ(r.ok, !hasError) << name;
    }
}

TEST(Diagnostics, SummaryAndFooterLinesAreIgnored)
{
    auto ds = parseNvrtcLog("\nRemark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n\n"
                            "2 errors detected in the compilation of \"k.cu\".\nCompilation terminated.\n");
    EXPECT_TRUE(ds.empty());
    EXPECT_TRUE(parseNvrtcLog("").empty());
}

TEST(Diagnostics, CrLfRemarkAndNoCaret)
{
    // NVRTC 13 printed no remark for any source tried (see tests/data/nvrtc_logs);
    // this is the same layout with the remark severity.
    auto ds = parseNvrtcLog("k.cu(7): remark #2361-D: some remark\r\n"
                            "    x = 1;\r\n"
                            "    ^\r\n"
                            "\r\n"
                            "k.cu(9): warning: no caret here\r\n");
    ASSERT_EQ(ds.size(), 2u);
    EXPECT_EQ(ds[0].severity, Severity::Remark);
    EXPECT_EQ(ds[0].code, "2361-D");
    EXPECT_EQ(ds[0].line, 7);
    EXPECT_EQ(ds[0].column, 3);
    EXPECT_EQ(ds[1].severity, Severity::Warning);
    EXPECT_EQ(ds[1].line, 9);
    EXPECT_EQ(ds[1].column, 0);
    EXPECT_EQ(ds[1].message, "no caret here");
}

TEST(Diagnostics, FileNamesWithParenthesesAndSpaces)
{
    auto ds = parseNvrtcLog("/tmp/my dir (copy)/k.cu(12): error: oops\n  a\n  ^\n");
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].file, "/tmp/my dir (copy)/k.cu");
    EXPECT_EQ(ds[0].line, 12);
    EXPECT_EQ(ds[0].column, 1);
}

TEST(Diagnostics, VeryLongLinesDoNotBreakTheParser)
{
    std::string longLine(200000, 'x');
    std::string log = "k.cu(3): error: identifier \"" + longLine + "\" is undefined\n  " + longLine + "\n  "
        + std::string(100000, ' ') + "^\n\n";
    auto ds = parseNvrtcLog(log);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].line, 3);
    EXPECT_EQ(ds[0].column, 100001);
}

TEST(Diagnostics, LinesThatOnlyLookLikeHeadersAreNotDiagnostics)
{
    auto ds = parseNvrtcLog("k.cu(2): error: real one\n"
                            "      f(a): b;\n"
                            "      ^\n"
                            "\n"
                            "errors: not a header\n"
                            "x(12): warnings: not a severity\n");
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].message, "real one");
    EXPECT_EQ(ds[0].column, 5);
}

// NVRTC puts a missing ";" at the next token, on the next line; the compiler moves it
// back to the end of the statement that lacks it.
TEST(Diagnostics, MissingSemicolonIsOnTheLineWhereItIsMissing)
{
    const std::string source = "__global__ void k(int* out)\n{\n    int x = 3   // three\n\n    out[0] = x;\n}\n";
    std::vector<Diagnostic> d = {{"k.cu", 5, 5, Severity::Error, "expected a \";\"", {}, {}},
                                 {"k.cu", 5, 5, Severity::Error, "identifier \"y\" is undefined", {}, {}},
                                 {"other.h", 5, 5, Severity::Error, "expected a \";\"", {}, {}}};
    MissingTokenLocator::relocate(d, source, "k.cu");
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[0].column, 13); // the "3", before the comment
    EXPECT_EQ(d[1].line, 5);    // other messages stay where NVRTC put them
    EXPECT_EQ(d[2].line, 5);    // and so do other files'
    MissingTokenLocator::relocate(d, source, "k.cu");
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[0].column, 13);
    // A token reported in the middle of a line is left alone.
    std::vector<Diagnostic> mid = {{"k.cu", 5, 12, Severity::Error, "expected a \")\"", {}, {}}};
    MissingTokenLocator::relocate(mid, source, "k.cu");
    EXPECT_EQ(mid[0].line, 5);
    EXPECT_EQ(mid[0].column, 12);
}

TEST(Diagnostics, CompilerReportsMissingSemicolonAtTheStatement)
{
    // NVRTC is ours to carry (bundled or the toolkit's): without it this test fails.
    CompileRequest req;
    req.source = test::readTextFile(kLogDir / "missing_semicolon.cu");
    req.sourceName = "missing_semicolon.cu";
    req.options.tagPrintf = false;
    const CompileResult r = Compiler().compile(req);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics[0].message, "expected a \";\"");
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[0].column, 13);
}
