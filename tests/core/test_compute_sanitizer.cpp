// Finding compute-sanitizer and the command line that runs a program under it.
#include "run/ComputeSanitizerCommand.hpp"
#include "run/ComputeSanitizerLocator.hpp"
#include "support/ScopedEnvironment.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kw;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
    TempDir()
    {
        path_ = fs::temp_directory_path()
            / ("kw_sanitizer_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_"
               + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

fs::path makeFile(const fs::path& p, bool executable)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "#!/bin/sh\n";
    fs::permissions(p, executable ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write);
    return p;
}

SanitizerSearch emptySearch()
{
    SanitizerSearch s;
    return s;
}

} // namespace

TEST(ComputeSanitizerLocator, MissingToolNamesWhereItLookedAndTheSimulator)
{
    TempDir dir;
    SanitizerSearch s = emptySearch();
    s.toolkits = {dir.path() / "cuda"};
    s.folders = {dir.path() / "opt"};
    EXPECT_FALSE(ComputeSanitizerLocator::find(s));
    try {
        ComputeSanitizerLocator::require(s);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Usage);
        const std::string m = e.what();
        EXPECT_NE(m.find("compute-sanitizer was not found"), std::string::npos) << m;
        EXPECT_NE(m.find("PATH (empty)"), std::string::npos) << m;
        EXPECT_NE(m.find((dir.path() / "cuda" / "bin").string()), std::string::npos) << m;
        EXPECT_NE(m.find((dir.path() / "cuda" / "compute-sanitizer").string()), std::string::npos) << m;
        EXPECT_NE(m.find((dir.path() / "opt").string()), std::string::npos) << m;
        EXPECT_NE(m.find("install the CUDA Toolkit's compute-sanitizer"), std::string::npos) << m;
        EXPECT_NE(m.find("--device sim, whose checks need no GPU"), std::string::npos) << m;
    }
}

#ifndef _WIN32
TEST(ComputeSanitizerLocator, TakesTheFirstExecutableInOrder)
{
    TempDir dir;
    const fs::path a = dir.path() / "a", b = dir.path() / "b", cuda = dir.path() / "cuda";
    makeFile(a / "compute-sanitizer", false); // not executable: skipped
    const fs::path inB = makeFile(b / "compute-sanitizer", true);
    const fs::path inToolkit = makeFile(cuda / "bin" / "compute-sanitizer", true);
    const fs::path inOldToolkit = makeFile(dir.path() / "old" / "compute-sanitizer" / "compute-sanitizer", true);

    SanitizerSearch s = emptySearch();
    s.pathVariable = a.string() + ":" + b.string();
    s.toolkits = {cuda};
    EXPECT_EQ(ComputeSanitizerLocator::find(s), inB);

    s.pathVariable = a.string();
    EXPECT_EQ(ComputeSanitizerLocator::find(s), inToolkit);

    s.toolkits = {dir.path() / "old"};
    EXPECT_EQ(ComputeSanitizerLocator::find(s), inOldToolkit) << "<toolkit>/compute-sanitizer/ of older toolkits";

    const fs::path chosen = makeFile(dir.path() / "mine" / "cs", true);
    s.explicitPath = chosen.string();
    EXPECT_EQ(ComputeSanitizerLocator::find(s), chosen) << "KWB_COMPUTE_SANITIZER comes first";
}

TEST(ComputeSanitizerLocator, CandidatesInOrderWithoutDuplicatesOrTheWorkingFolder)
{
    SanitizerSearch s = emptySearch();
    s.explicitPath = "/x/cs";
    s.pathVariable = "/p1::/p2:/p1"; // an empty entry is not the working folder here
    s.toolkits = {"/t"};
    s.folders = {"/f"};
    const std::vector<fs::path> want = {"/x/cs",
                                        "/p1/compute-sanitizer",
                                        "/p2/compute-sanitizer",
                                        "/t/bin/compute-sanitizer",
                                        "/t/compute-sanitizer/compute-sanitizer",
                                        "/f/compute-sanitizer"};
    EXPECT_EQ(ComputeSanitizerLocator::candidates(s), want);
}

TEST(ComputeSanitizerLocator, ReadsTheEnvironment)
{
    const SanitizerSearch s = [] {
        const kw::test::ScopedEnvironment tool("KWB_COMPUTE_SANITIZER", "/somewhere/compute-sanitizer");
        const kw::test::ScopedEnvironment home("CUDA_HOME", "/my/cuda");
        const kw::test::ScopedEnvironment path("PATH", "/only/here");
        return SanitizerSearch::fromEnvironment();
    }();
    EXPECT_EQ(s.explicitPath, "/somewhere/compute-sanitizer");
    EXPECT_EQ(s.pathVariable, "/only/here");
    ASSERT_FALSE(s.toolkits.empty());
    EXPECT_EQ(s.toolkits.front(), fs::path("/my/cuda"));
    EXPECT_NE(std::find(s.toolkits.begin(), s.toolkits.end(), fs::path("/usr/local/cuda")), s.toolkits.end());
    EXPECT_NE(std::find(s.folders.begin(), s.folders.end(), fs::path("/opt/nvidia/compute-sanitizer")),
              s.folders.end());
}
#endif

TEST(ComputeSanitizerCommand, MemcheckCommandLine)
{
    ComputeSanitizerCommand c;
    c.sanitizer = "/usr/local/cuda/bin/compute-sanitizer";
    c.tool = CheckTool::Memcheck;
    c.xmlFile = "/job/report.xml";
    c.logFile = "/job/sanitizer.log";
    c.program
        = {"/opt/kwb/bin/kwb-run", "run", "/job/document.kwb", "--device", "cuda:0", "--json", "--out", "/job/out"};
    const std::vector<std::string> want = {"/usr/local/cuda/bin/compute-sanitizer",
                                           "--tool",
                                           "memcheck",
                                           "--xml",
                                           "--save",
                                           "/job/report.xml",
                                           "--log-file",
                                           "/job/sanitizer.log",
                                           "--print-limit",
                                           "1000",
                                           "--error-exitcode",
                                           "86",
                                           "--check-exit-code",
                                           "no",
                                           "--require-cuda-init",
                                           "no",
                                           "--report-api-errors",
                                           "no",
                                           "--target-processes",
                                           "application-only",
                                           "--launch-timeout",
                                           "60",
                                           "--show-backtrace",
                                           "no",
                                           "/opt/kwb/bin/kwb-run",
                                           "run",
                                           "/job/document.kwb",
                                           "--device",
                                           "cuda:0",
                                           "--json",
                                           "--out",
                                           "/job/out"};
    EXPECT_EQ(c.arguments(), want);
}

TEST(ComputeSanitizerCommand, RacecheckAsksForHazardsAndAnalysis)
{
    ComputeSanitizerCommand c;
    c.sanitizer = "cs";
    c.tool = CheckTool::Racecheck;
    c.xmlFile = "r.xml";
    c.logFile = "r.log";
    c.program = {"prog"};
    const auto a = c.arguments();
    ASSERT_GE(a.size(), 4u);
    EXPECT_EQ(a[2], "racecheck");
    EXPECT_EQ(std::vector<std::string>(a.end() - 3, a.end()),
              (std::vector<std::string>{"--racecheck-report", "all", "prog"}));
    for (CheckTool t : {CheckTool::Initcheck, CheckTool::Synccheck, CheckTool::Memcheck}) {
        c.tool = t;
        const auto b = c.arguments();
        EXPECT_EQ(b[2], toString(t));
        EXPECT_EQ(std::find(b.begin(), b.end(), "--racecheck-report"), b.end()) << toString(t);
        EXPECT_EQ(b.back(), "prog");
    }
}

TEST(ComputeSanitizerCommand, RefusesNoToolOrNoProgram)
{
    ComputeSanitizerCommand c;
    c.sanitizer = "cs";
    c.program = {"prog"};
    c.tool = CheckTool::None;
    EXPECT_THROW(c.arguments(), Error);
    c.tool = CheckTool::Memcheck;
    c.program.clear();
    EXPECT_THROW(c.arguments(), Error);
}

TEST(ComputeSanitizerCommand, QuotesEveryWordForTheShell)
{
#ifdef _WIN32
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("plain"), "\"plain\"");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("it's"), "\"it's\"");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote(""), "\"\"");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("C:\\a b\\"), "\"C:\\a b\\\\\"");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("say \"hi\""), "\"say \\\"hi\\\"\"");
#else
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("plain"), "'plain'");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(ComputeSanitizerCommand::shellQuote(""), "''");
#endif
}

#ifndef _WIN32
TEST(ComputeSanitizerCommand, ShellLineGivesTheProgramItsWordsUnchanged)
{
    TempDir dir;
    // A "sanitizer" that writes each argument on its own line.
    const fs::path echo = dir.path() / "echo args";
    {
        std::ofstream(echo) << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$KW_ARGS_OUT\"\n";
        fs::permissions(echo, fs::perms::owner_all);
    }
    const fs::path out = dir.path() / "args.txt";
    ComputeSanitizerCommand c;
    c.sanitizer = echo;
    c.tool = CheckTool::Synccheck;
    c.xmlFile = dir.path() / "a folder" / "it's.xml";
    c.logFile = dir.path() / "$HOME;log";
    c.program = {"/bin/kwb run", "doc with `spaces`.kwb", "\"quoted\"", "*"};
    const std::string line = "KW_ARGS_OUT=" + ComputeSanitizerCommand::shellQuote(out.string()) + " " + c.shellLine();
    ASSERT_EQ(std::system(line.c_str()), 0) << line;
    std::ifstream in(out);
    std::vector<std::string> got;
    for (std::string l; std::getline(in, l);)
        got.push_back(l);
    auto want = c.arguments();
    want.erase(want.begin()); // the sanitizer itself is $0
    EXPECT_EQ(got, want);
}
#endif
