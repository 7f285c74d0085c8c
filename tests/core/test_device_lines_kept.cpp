// No line that device code is made of is ever left out as host code. The oracle is the
// CUDA compiler itself: nvcc splits a .cu file into host and device code with its own
// front end, and the lines its PTX carries (`.loc`) are device code by definition. For
// every sample, every test document that compiles, and every document below the folders
// named in KWB_AUDIT_DOCUMENTS (colon-separated: a corpus kept outside the tree; nvcc also
// gets the folders of KWB_AUDIT_NVCC_INCLUDE), none may be
// among the lines the workbench blanked, in the source or in any header.
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "util/ArchName.hpp"
#include "util/Error.hpp"

#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace kw;
namespace fs = std::filesystem;

namespace {

using Lines = std::map<std::string, std::set<int>>; // file name (no folder) -> lines

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The lines a PTX text's `.loc` directives name, by the file's name without its folder
// (nvcc writes the `.file` table after the code).
Lines ptxLines(const std::string& ptx)
{
    std::map<int, std::string> files;
    std::vector<std::pair<int, int>> locs;
    static const std::regex file(R"re(^\s*\.file\s+(\d+)\s+"([^"]*)")re");
    static const std::regex loc(R"(^\s*\.loc\s+(\d+)\s+(\d+))");
    std::istringstream in(ptx);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, file))
            files[std::stoi(m[1])] = fs::path(m[2].str()).filename().string();
        else if (std::regex_search(line, m, loc))
            locs.emplace_back(std::stoi(m[1]), std::stoi(m[2]));
    }
    Lines lines;
    for (const auto& [f, l] : locs)
        if (files.count(f))
            lines[files[f]].insert(l);
    return lines;
}

// What the workbench left out as host code, in the source and in its headers: every
// note "... (lines A-B) is host code: not compiled".
Lines blankedLines(const CompileResult& r)
{
    Lines lines;
    static const std::regex range(R"(\(lines (\d+)-(\d+)\) is host code)");
    for (const auto& d : r.diagnostics) {
        std::smatch m;
        if (d.severity != Severity::Note || !std::regex_search(d.message, m, range))
            continue;
        for (int l = std::stoi(m[1]); l <= std::stoi(m[2]); ++l)
            lines[fs::path(d.file).filename().string()].insert(l);
    }
    return lines;
}

std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

fs::path nvccPath()
{
    if (const char* cuda = std::getenv("CUDA_PATH"); cuda && fs::exists(fs::path(cuda) / "bin/nvcc"))
        return fs::path(cuda) / "bin/nvcc";
    return "/usr/local/cuda/bin/nvcc";
}

struct NvccRun {
    bool ok = false;
    std::string ptx, log;
};

// nvcc's PTX for the document's source as the document compiles it (defines, dialect,
// include folders), for the same virtual architecture. A header that nvcc finds nowhere
// (a samples' helper_cuda.h the user did not copy) is given to it empty, a few times over,
// as the workbench gives it to NVRTC: the oracle then still sees the device code.
NvccRun nvccPtx(const Document& doc, const CompileRequest& req, const fs::path& scratch)
{
    fs::path source = doc.baseDir() / req.sourceName;
    if (doc.sourceFile.empty()) {
        source = scratch / req.sourceName;
        std::ofstream(source, std::ios::binary) << req.source;
    }
    const fs::path standIns = scratch / "stand-ins";
    fs::remove_all(standIns);
    fs::create_directories(standIns);
    std::string cmd = shellQuote(nvccPath().string()) + " -ptx -lineinfo -x cu -arch=" + req.options.arch
        + " -std=" + req.options.std;
    for (const auto& [name, value] : req.options.defines)
        cmd += " " + shellQuote("-D" + name + (value.empty() ? "" : "=" + value));
    cmd += " -I" + shellQuote(doc.baseDir().string());
    for (const auto& dir : req.options.includeDirs)
        cmd += " -I" + shellQuote((doc.baseDir() / dir).string());
    cmd += " -I" + shellQuote(standIns.string());
    // Host headers the corpus's files expect from their projects (cuda-samples' Common),
    // for nvcc only: the workbench compiles without them.
    if (const char* extra = std::getenv("KWB_AUDIT_NVCC_INCLUDE")) {
        std::istringstream list(extra);
        for (std::string dir; std::getline(list, dir, ':');)
            if (!dir.empty())
                cmd += " -I" + shellQuote(dir);
    }
    if (req.options.fastMath)
        cmd += " --use_fast_math";
    const fs::path out = scratch / "nvcc.ptx", log = scratch / "nvcc.log";
    cmd += " -o " + shellQuote(out.string()) + " " + shellQuote(source.string()) + " > " + shellQuote(log.string())
        + " 2>&1";
    static const std::regex missing(R"(fatal error: ([^:\s]+): No such file or directory)");
    NvccRun run;
    for (int attempt = 0; attempt < 6; ++attempt) {
        run.ok = std::system(cmd.c_str()) == 0;
        run.log = cmd + "\n" + readAll(log);
        std::smatch m;
        if (run.ok || !std::regex_search(run.log, m, missing))
            break;
        const fs::path header = standIns / m[1].str();
        fs::create_directories(header.parent_path());
        std::ofstream{header};
    }
    if (run.ok)
        run.ptx = readAll(out);
    return run;
}

std::vector<fs::path> documentsBelow(const fs::path& dir)
{
    std::vector<fs::path> docs;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".kwb" && e.path().filename().string().rfind("bad_", 0) != 0)
            docs.push_back(e.path());
    std::sort(docs.begin(), docs.end());
    return docs;
}

struct Audit {
    int audited = 0;
    int blankedLines = 0; // of the audited documents: so the audit is known to see some
    std::vector<std::string> notCompiled;
};

// Audits one document; adds a failure for every device line the workbench blanked.
void audit(const fs::path& path, Compiler& compiler, const fs::path& scratch, Audit& tally, bool mustCompile)
{
    SCOPED_TRACE(path.string());
    const Trust trust = fs::exists(path.parent_path() / "TRUST") ? Trust::Trusted : Trust::Untrusted;
    Document doc;
    try {
        doc = DocumentReader::readFile(path, trust);
    } catch (const Error& e) {
        if (mustCompile)
            ADD_FAILURE() << e.what();
        tally.notCompiled.push_back(path.string() + ": " + e.what());
        return;
    }
    CompileRequest req = RunEngine::compileRequest(doc);
    const ArchName arch = ArchName::parse(doc.options.arch);
    req.options.arch = arch.valid() ? arch.ptxName() : "compute_75"; // PTX, as nvcc -ptx gives
    CompileResult r;
    try {
        r = compiler.compile(req);
    } catch (const Error& e) { // an option or a file the document may not ask for
        if (mustCompile)
            ADD_FAILURE() << e.what();
        tally.notCompiled.push_back(path.string() + ": " + e.what());
        return;
    }
    if (!r.ok) {
        if (mustCompile)
            ADD_FAILURE() << r.log;
        tally.notCompiled.push_back(path.string());
        return;
    }
    const NvccRun nvcc = nvccPtx(doc, req, scratch);
    if (!nvcc.ok) {
        // nvcc compiles host code too, so a host header this machine lacks stops it.
        if (mustCompile)
            ADD_FAILURE() << "nvcc, the oracle, cannot compile it:\n" << nvcc.log;
        tally.notCompiled.push_back(path.string() + " (nvcc: " + nvcc.log.substr(nvcc.log.find('\n') + 1, 160) + ")");
        return;
    }
    const Lines device = ptxLines(nvcc.ptx);
    if (device.empty()) { // a template kernel that nothing in the file instantiates
        tally.notCompiled.push_back(path.string() + " (nvcc emits no code for it)");
        return;
    }
    ++tally.audited;
    for (const auto& [file, lines] : blankedLines(r)) {
        const auto d = device.find(file);
        if (d == device.end())
            continue;
        tally.blankedLines += static_cast<int>(lines.size());
        for (int line : lines)
            EXPECT_EQ(d->second.count(line), 0u)
                << file << ":" << line << " is device code (nvcc compiles it) but was left out as host code";
    }
}

} // namespace

TEST(DeviceLinesKept, TheCompilersOwnSplitConfirmsThatNoDeviceLineOfASampleOrTestDocumentIsBlanked)
{
#ifdef _WIN32
    GTEST_SKIP() << "nvcc is not on the machine that runs the Windows build's tests";
#endif
    ASSERT_TRUE(fs::exists(nvccPath())) << "the CUDA Toolkit's nvcc is needed: " << nvccPath();
    Compiler compiler;
    const fs::path scratch = test::freshDir("kw_test_device_lines", "tree");
    Audit samples, tests;
    for (const auto& p : documentsBelow(KW_SAMPLES_DIR))
        audit(p, compiler, scratch, samples, true);
    for (const auto& p : documentsBelow(KW_TEST_DATA_DIR))
        audit(p, compiler, scratch, tests, false);
    // A corpus of public files kept outside the tree, when one is named.
    Audit corpus;
    if (const char* dirs = std::getenv("KWB_AUDIT_DOCUMENTS")) {
        std::istringstream list(dirs);
        for (std::string dir; std::getline(list, dir, ':');)
            if (!dir.empty())
                for (const auto& p : documentsBelow(dir))
                    audit(p, compiler, scratch, corpus, false);
    }
    EXPECT_GE(samples.audited, 11); // all but the template sample
    // The whole-file documents, whose host code is what this is about, must be among them.
    EXPECT_GE(tests.audited, 20);
    // device_helpers.kwb has host code beside inline __device__ helpers behind macros.
    EXPECT_GE(tests.blankedLines, 20);
    for (const auto* a : {&tests, &corpus})
        for (const auto& n : a->notCompiled)
            std::cout << "not audited: " << n << "\n";
    std::cout << "audited " << samples.audited << " samples, " << tests.audited << " test documents and "
              << corpus.audited << " corpus documents\n";
}
