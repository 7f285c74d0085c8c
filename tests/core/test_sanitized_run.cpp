// SanitizedRun without a GPU: a stand-in compute-sanitizer saves a report captured
// on a GPU machine (tests/data/sanitizer) and runs the real child kwb-run on the
// simulator. Proves the job folder, the child's command line and working folder, its
// result and outputs coming back, the findings mapped to the document's names, and
// the clear errors for a missing tool, a crash, a time-out and a refused document.
// CheckJobFolder's own tests are at the end.
#include "compile/Compiler.hpp"
#include "data/NpyFile.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/PreparedRun.hpp"
#include "run/RunEngine.hpp"
#include "serve/CheckJobFolder.hpp"
#include "serve/SanitizedRun.hpp"
#include "support/ScopedEnvironment.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kw;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kData = fs::path(KW_TEST_DATA_DIR) / "sanitizer";

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> readLines(const fs::path& p)
{
    std::ifstream in(p);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    return lines;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool isEmptyFolder(const fs::path& p) { return !fs::exists(p) || fs::is_empty(p); }

class TempDir {
public:
    explicit TempDir(const std::string& what)
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() / ("kw_sanitized_" + std::string(info->name()) + "_" + what);
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// Sets environment variables for one test.
class Environment {
public:
    ~Environment()
    {
        for (const auto& n : names_)
            kw::test::ScopedEnvironment::assign(n, std::nullopt);
    }
    void set(const std::string& name, const std::string& value)
    {
        kw::test::ScopedEnvironment::assign(name, value);
        names_.push_back(name);
    }

private:
    std::vector<std::string> names_;
};

#ifndef _WIN32
// compute-sanitizer's stand-in: its options as the real one takes them, then the
// program, on the simulator instead of the GPU.
const char* kFakeSanitizer = R"SH(#!/bin/sh
save=; log=
while [ $# -gt 0 ]; do
  case "$1" in
    --save) save=$2; shift 2 ;;
    --log-file) log=$2; shift 2 ;;
    --xml) shift ;;
    --*) shift 2 ;;
    *) break ;;
  esac
done
printf '%s\n' "$@" > "$KW_FAKE_DIR/program.txt"
pwd > "$KW_FAKE_DIR/cwd.txt"
cp -R "$PWD" "$KW_FAKE_DIR/job"
if [ -n "$KW_FAKE_XML" ]; then sed "s|/tmp/w/|$PWD/|g" "$KW_FAKE_XML" > "$save"; fi
if [ -n "$KW_FAKE_LOG" ]; then cp "$KW_FAKE_LOG" "$log"; fi
if [ -n "$KW_FAKE_SLEEP" ]; then sleep "$KW_FAKE_SLEEP"; fi
if [ -n "$KW_FAKE_CRASH" ]; then kill -SEGV $$; fi
if [ -n "$KW_FAKE_STDERR" ]; then echo "$KW_FAKE_STDERR" >&2; exit 2; fi
prog=$1; shift
for a do shift; case "$a" in cuda:*) set -- "$@" sim ;; *) set -- "$@" "$a" ;; esac; done
"$prog" "$@"
status=$?
if [ -n "$KW_FAKE_STATUS" ]; then exit "$KW_FAKE_STATUS"; fi
exit $status
)SH";

// A GPU as RunEngine sees it; the stand-in runs the child on the simulator.
class FakeGpu : public Backend {
public:
    DeviceInfo device() const override
    {
        DeviceInfo d;
        d.id = "cuda:0";
        d.name = "stand-in GPU";
        return d;
    }
    std::string compileArch() const override { return "sm_90"; }
    LaunchReport launch(const KernelImage&, std::vector<BufferArg>&, const std::vector<LaunchArg>&,
                        const LaunchConfig&) override
    {
        ADD_FAILURE() << "a checked run on a GPU does not launch in this process";
        return {};
    }
};

// A document in a folder of its own: the source in a file, a header beside it, an
// initialiser from an .npy file; the add's result checked.
class SanitizedRunTest : public ::testing::Test {
protected:
    SanitizedRunTest()
        : docs_("doc")
        , fake_("fake")
        , work_("work")
    {
        const fs::path d = docs_.path();
        fs::create_directories(d / "include");
        std::ofstream(d / "include" / "helper.cuh")
            << "__device__ inline float plus(float x, float y) { return x + y; }\n";
        std::ofstream(d / "add.cu") << "#include \"include/helper.cuh\"\n"
                                       "__global__ void add(const float* a, const float* b, float* c, int n)\n"
                                       "{\n"
                                       "    int i = threadIdx.x;\n"
                                       "    if (i < n) c[i] = plus(a[i], b[i]);\n"
                                       "}\n";
        HostBuffer a(DType::F32, 64);
        for (std::size_t i = 0; i < 64; ++i)
            a.set(i, 2.0 * double(i));
        NpyFile::write(d / "a.npy", a);
        std::ofstream(d / "add.kwb") << R"JSON({
          "format": "kernel-workbench", "version": 1,
          "source_file": "add.cu", "kernel": "add",
          "variables": [["n", "64"]],
          "buffers": [
            {"name": "a", "dtype": "f32", "count": "n", "init": {"kind": "file", "path": "a.npy"}, "direction": "in"},
            {"name": "b", "dtype": "f32", "count": "n", "init": {"kind": "arange", "start": 1}, "direction": "in"},
            {"name": "c", "dtype": "f32", "count": "n", "direction": "out"}
          ],
          "args": "auto",
          "launch": {"grid": [1], "block": ["n"]},
          "run": {"warmup": 2, "repeats": 5},
          "checks": [{"buffer": "c", "expect": "a + b"}]
        })JSON";

        const fs::path script = fake_.path() / "compute-sanitizer";
        std::ofstream(script) << kFakeSanitizer;
        fs::permissions(script, fs::perms::owner_all);
        options_.search.explicitPath = script.string();
        options_.kwbRun = fs::path(KW_BIN_DIR) / "kwb-run";
        options_.workRoot = work_.path();
        env_.set("KW_FAKE_DIR", fake_.path().string());
    }

    Document document(Trust trust = Trust::Untrusted) const
    {
        return DocumentReader::readFile(docs_.path() / "add.kwb", trust);
    }

    RunResult run(CheckTool tool, const Document& doc)
    {
        Compiler compiler;
        FakeGpu gpu;
        SanitizedRun sanitizer(options_);
        RunEngine engine(compiler, gpu);
        engine.setExternalCheck(&sanitizer);
        RunOverrides o;
        o.check = tool;
        return engine.run(doc, o);
    }
    RunResult run(CheckTool tool) { return run(tool, document()); }

    void report(const std::string& xml, const std::string& log = {})
    {
        env_.set("KW_FAKE_XML", (kData / xml).string());
        if (!log.empty())
            env_.set("KW_FAKE_LOG", (kData / log).string());
    }

    TempDir docs_, fake_, work_;
    Environment env_;
    SanitizedRunOptions options_;
};

} // namespace

TEST_F(SanitizedRunTest, FindingsAtTheDocumentsSourceLineAndTheChildsResult)
{
    report("memcheck_oob.xml", "memcheck_oob.log");
    const RunResult r = run(CheckTool::Memcheck);

    EXPECT_EQ(r.check, CheckTool::Memcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.tool, CheckTool::Memcheck);
    EXPECT_EQ(f.kind, "out of bounds write");
    EXPECT_EQ(f.file, "add.cu") << "the child's kernel.cu is the document's source_file";
    EXPECT_EQ(f.line, 3);
    EXPECT_TRUE(contains(f.message, "at add.cu:3 by thread (63,0,0) in block (0,0,0)")) << f.message;
    EXPECT_FALSE(r.ok) << "a finding fails the run";

    // The child's own result: compiled, launched (on the simulator here), checked.
    ASSERT_TRUE(r.compile.ok);
    EXPECT_FALSE(r.fault);
    EXPECT_EQ(r.device.id, "sim");
    ASSERT_EQ(r.checks.size(), 1u);
    EXPECT_TRUE(r.checks[0].passed);
    EXPECT_EQ(r.block.x, 64u);
    // Outputs from the child's .npy, inputs as prepared here.
    ASSERT_EQ(r.buffers.size(), 3u);
    const HostBuffer& a = r.buffers[0].data;
    const HostBuffer& c = r.buffers[2].data;
    ASSERT_EQ(a.count(), 64u);
    ASSERT_EQ(c.count(), 64u);
    for (std::size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(a.at(i), 2.0 * double(i));
        EXPECT_EQ(c.at(i), 3.0 * double(i) + 1.0) << i;
    }
    EXPECT_EQ(r.buffers[1].data.count(), 64u);
    EXPECT_NE(std::find_if(r.warnings.begin(), r.warnings.end(),
                           [](const std::string& w) { return contains(w, "not representative"); }),
              r.warnings.end());

    // The child: this installation's kwb-run on the job's document, from the job's folder.
    const std::vector<std::string> program = readLines(fake_.path() / "program.txt");
    const fs::path cwd = readLines(fake_.path() / "cwd.txt").at(0);
    const std::vector<std::string> want
        = {options_.kwbRun.string(), "run", (cwd / "document.kwb").string(), "--device", "cuda:0", "--json", "--out",
           (cwd / "out").string()};
    EXPECT_EQ(program, want) << "no --trust for a document from elsewhere";
    EXPECT_EQ(cwd.parent_path(), fs::canonical(work_.path()));
    EXPECT_TRUE(isEmptyFolder(work_.path())) << "the job's folder is gone";

    // What the child read: the source inline, one launch, line numbers, its header and data.
    const fs::path job = fake_.path() / "job";
    const json child = json::parse(readText(job / "document.kwb"));
    EXPECT_FALSE(child.contains("source_file"));
    EXPECT_TRUE(contains(child.value("source", ""), "plus(a[i], b[i])"));
    EXPECT_EQ(child["run"]["warmup"], 0);
    EXPECT_EQ(child["run"]["repeats"], 0);
    EXPECT_EQ(child["run"]["time_limit_s"], 100.0) << "ten times the document's 10 s";
    EXPECT_TRUE(child.value("options", json::object()).value("lineinfo", true)) << "absent is the default, true";
    EXPECT_EQ(child["buffers"][0]["init"]["path"], "_files/0.npy");
    EXPECT_TRUE(fs::is_regular_file(job / "include" / "helper.cuh"));
    EXPECT_EQ(NpyFile::read(job / "_files" / "0.npy").data.at(5), 10.0);
}

TEST_F(SanitizedRunTest, ATrustedDocumentStaysTrustedInTheChild)
{
    report("memcheck_clean.xml", "memcheck_clean.log");
    const RunResult r = run(CheckTool::Initcheck, document(Trust::Trusted));
    EXPECT_EQ(readLines(fake_.path() / "program.txt").back(), "--trust");
    EXPECT_TRUE(r.ok);
}

TEST_F(SanitizedRunTest, ACleanRunHasNoFindingsAndPasses)
{
    report("memcheck_clean.xml", "memcheck_clean.log");
    const RunResult r = run(CheckTool::Memcheck);
    EXPECT_EQ(r.check, CheckTool::Memcheck);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_TRUE(r.ok);
}

TEST_F(SanitizedRunTest, ARaceAtBothLinesAndTheRecordsThePrintLimitCut)
{
    report("racecheck_limited.xml", "racecheck_limited.log");
    const RunResult r = run(CheckTool::Racecheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, "shared-memory race");
    EXPECT_EQ(r.findings[0].file, "add.cu");
    EXPECT_EQ(r.findings[0].line, 14);
    EXPECT_TRUE(
        contains(r.findings[0].message, "write by thread (31,0,0) at add.cu:13, read by thread (32,0,0) at add.cu:14"))
        << r.findings[0].message;
    EXPECT_NE(
        std::find(r.warnings.begin(), r.warnings.end(),
                  "compute-sanitizer --tool racecheck found 257 errors; its report lists the first 3 (--print-limit)"),
        r.warnings.end());
}

TEST_F(SanitizedRunTest, ErrorsTheReportDoesNotListAreStillAFinding)
{
    report("memcheck_clean.xml", "memcheck_oob.log");
    env_.set("KW_FAKE_STATUS", "86");
    const RunResult r = run(CheckTool::Memcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, "unlisted error");
    EXPECT_EQ(r.findings[0].message,
              "compute-sanitizer --tool memcheck reported errors its report does not list: "
              "Invalid __global__ write of size 4 bytes");
    EXPECT_FALSE(r.ok);
}

TEST_F(SanitizedRunTest, NoReportIsAWarning)
{
    const RunResult r = run(CheckTool::Synccheck);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_NE(std::find_if(r.warnings.begin(), r.warnings.end(),
                           [](const std::string& w) {
                               return contains(w, "compute-sanitizer --tool synccheck wrote no report");
                           }),
              r.warnings.end());
}

TEST_F(SanitizedRunTest, MissingToolSaysWhereItLookedAndOffersTheSimulator)
{
    options_.search = SanitizerSearch{};
    options_.search.toolkits = {work_.path() / "no-cuda"};
    try {
        run(CheckTool::Memcheck);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Usage);
        EXPECT_TRUE(contains(e.what(), "compute-sanitizer was not found (looked in PATH (empty), ")) << e.what();
        EXPECT_TRUE(contains(e.what(), (work_.path() / "no-cuda" / "bin").string())) << e.what();
        EXPECT_TRUE(contains(e.what(), "or use --device sim, whose checks need no GPU")) << e.what();
    }
    EXPECT_TRUE(isEmptyFolder(work_.path()));
}

TEST_F(SanitizedRunTest, AChildThatRunsTooLongIsStoppedWithAClearError)
{
    env_.set("KW_FAKE_SLEEP", "60");
    options_.timeLimit = std::chrono::milliseconds(1500);
    const auto start = std::chrono::steady_clock::now();
    try {
        run(CheckTool::Racecheck);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Fault);
        EXPECT_TRUE(contains(e.what(),
                             "the run under compute-sanitizer --tool racecheck did not finish within 1 s and "
                             "was stopped"))
            << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_TRUE(isEmptyFolder(work_.path()));
}

TEST_F(SanitizedRunTest, AChildThatCrashesIsAClearError)
{
    env_.set("KW_FAKE_CRASH", "1");
    try {
        run(CheckTool::Memcheck);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Fault);
        EXPECT_TRUE(
            contains(e.what(), "kwb-run under compute-sanitizer --tool memcheck was killed by signal 11 (it crashed)"))
            << e.what();
    }
}

TEST_F(SanitizedRunTest, TheChildsRefusalKeepsItsCategoryAndMessage)
{
    env_.set("KW_FAKE_STDERR", "kwb-run: document error: buffers[0].count: \"n/3\" is not an integer (21.33)");
    try {
        run(CheckTool::Memcheck);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Document);
        EXPECT_STREQ(e.what(), "buffers[0].count: \"n/3\" is not an integer (21.33)");
    }
}
#else
} // namespace
#endif

TEST(SanitizedRunLimits, TheToolsGetTenTimesTheDocumentsTime)
{
    EXPECT_EQ(SanitizedRun::childLaunchLimitSeconds(10), 100.0);
    EXPECT_EQ(SanitizedRun::childLaunchLimitSeconds(0.5), 30.0) << "at least 30 s";
    EXPECT_EQ(SanitizedRun::childLaunchLimitSeconds(0), 30.0);
    EXPECT_EQ(SanitizedRun::childLaunchLimitSeconds(1e300), 1e9) << "no limit stays none";
    RunSettings run;
    run.timeLimitSeconds = 10;
    EXPECT_EQ(SanitizedRun::jobLimit(run, {}), std::chrono::milliseconds(380000));
    RunOverrides o;
    o.timeLimitSeconds = 2;
    EXPECT_EQ(SanitizedRun::jobLimit(run, o), std::chrono::milliseconds(240000));
    EXPECT_GT(SanitizedRun::jobLimit(RunSettings{0, 0, 0, 1e300}, {}).count(), 0);
}

TEST(SanitizedRunLimits, ExitStatusFromTheRunnersWords)
{
    EXPECT_EQ(SanitizedRun::exitStatusOf("exited with status 86"), 86);
    EXPECT_EQ(SanitizedRun::exitStatusOf("exited with status 0"), 0);
    EXPECT_FALSE(SanitizedRun::exitStatusOf("was killed by signal 9"));
    EXPECT_FALSE(SanitizedRun::exitStatusOf(""));
}

TEST(CheckJobFolder, InitialisersThatCameWithAJobBecomeFiles)
{
    TempDir where("jobs");
    Document doc = DocumentReader::parse(R"JSON({
      "format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(float* p) { p[threadIdx.x] += 1; }\n",
      "kernel": "k",
      "buffers": [{"name": "p", "dtype": "f32", "count": 4, "init": {"kind": "file", "path": "sent/p.npy"}}],
      "args": [{"name": "p", "buffer": "p"}],
      "launch": {"grid": [1], "block": [4]},
      "run": {"time_limit_s": 2}
    })JSON",
                                         where.path() / "runner-job" / "document.kwb");
    auto files = std::make_shared<AttachedFiles>();
    NdArray p;
    p.data = HostBuffer(DType::F32, 4);
    for (std::size_t i = 0; i < 4; ++i)
        p.data.set(i, 7.0 + double(i));
    p.shape = {4};
    (*files)["sent/p.npy"] = p;
    doc.attachedFiles = files;
    doc.options.lineInfo = false;

    fs::path folder;
    {
        const CheckJobFolder job(doc, where.path() / "checks", 30);
        folder = job.folder();
        EXPECT_EQ(folder.parent_path(), fs::canonical(where.path() / "checks"));
        // The child reads it as a document from elsewhere: everything lies inside.
        const Document child = DocumentReader::readFile(job.documentFile(), Trust::Untrusted);
        EXPECT_EQ(child.buffers[0].init.file, "_files/0.npy");
        EXPECT_EQ(child.run.warmup, 0);
        EXPECT_EQ(child.run.repeats, 0);
        EXPECT_EQ(child.run.timeLimitSeconds, 30.0);
        EXPECT_TRUE(child.options.lineInfo) << "findings need line numbers";
        const PreparedRun prepared = PreparedRun::fromDocument(child);
        EXPECT_EQ(prepared.buffers[0].data.at(3), 10.0);
    }
    EXPECT_FALSE(fs::exists(folder)) << "removed with the object";
}

TEST(CheckJobFolder, PathsOfTheChildAreTheUsersNames)
{
    TempDir where("jobs");
    const fs::path outside = where.path() / "shared-headers";
    fs::create_directories(outside);
    Document doc = DocumentReader::parse(R"JSON({
      "format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n",
      "kernel": "k",
      "options": {"include_dirs": ["include", "OUTSIDE"]},
      "buffers": [{"name": "p", "dtype": "f32", "count": 4}],
      "args": [{"name": "p", "buffer": "p"}],
      "launch": {"grid": [1], "block": [4]}
    })JSON",
                                         where.path() / "mine" / "doc.kwb", Trust::Trusted);
    doc.options.includeDirs[1] = outside.string();
    doc.sourceFile = "kernel_v2.cu";
    fs::create_directories(where.path() / "mine" / "include");
    const CheckJobFolder job(doc, where.path() / "checks", 30);
    const std::string f = job.folder().string();
    EXPECT_EQ(job.userPath("kernel.cu"), "kernel_v2.cu");
    EXPECT_EQ(job.userPath(f + "/kernel.cu"), "kernel_v2.cu");
    EXPECT_EQ(job.userPath(f + "/include/util.cuh"), "include/util.cuh");
    EXPECT_EQ(job.userPath(f + "/_include1/deep/x.cuh"), (outside / "deep" / "x.cuh").generic_string());
    EXPECT_EQ(job.userPath("/usr/local/cuda/include/cuda_fp16.hpp"), "/usr/local/cuda/include/cuda_fp16.hpp");
    CompileResult c;
    c.diagnostics.push_back({f + "/include/util.cuh", 3, 1, Severity::Error, "oops", {}, ""});
    c.includedFiles = {f + "/include/util.cuh"};
    job.relativize(c);
    EXPECT_EQ(c.diagnostics[0].file, "include/util.cuh");
    EXPECT_EQ(c.includedFiles[0], "include/util.cuh");
}
