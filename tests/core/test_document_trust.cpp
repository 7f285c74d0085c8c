// A document from elsewhere: compile options only from the allow-list, every file it
// names inside its folder (links followed), every #include checked before NVRTC runs,
// and messages that never quote another file. Through the real NVRTC.
#include "compile/Compiler.hpp"
#include "compile/CompilerSandbox.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/OptionAllowList.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentRequests.hpp"
#include "doc/TrustManifest.hpp"
#include "doc/VariableScope.hpp"
#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#ifndef _WIN32
#include <sys/stat.h> // mkfifo
#endif

#include <filesystem>
#include <fstream>
#include <future>

namespace fs = std::filesystem;
using namespace kw;

namespace {

const char* kSecret = "KWB_SECRET_TOKEN_4711";

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// A document folder and, beside it, a folder of "private" files with a secret.
// Makes a symbolic link (to a file or a folder); "" when made, else why not (Wine and
// Windows without the privilege cannot make them).
std::string symlinkOrWhyNot(const fs::path& target, const fs::path& link)
{
    std::error_code ec;
    if (fs::is_directory(target))
        fs::create_directory_symlink(target, link, ec);
    else
        fs::create_symlink(target, link, ec);
    return ec ? "symbolic links cannot be made on this system (" + ec.message() + ")" : "";
}

// An untrusted document is compiled only inside the compiler's sandbox, which exists on
// Linux; elsewhere it is refused before any include is read (checked by
// WithoutASandboxAnUntrustedDocumentIsRefusedAndATrustedOneCompiles), so the include
// checks of an untrusted compile have nothing to check there.
#ifdef __linux__
#define SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED() static_cast<void>(0)
#else
#define SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED()                                                                         \
    GTEST_SKIP() << kw::CompilerSandbox::unavailableReason()                                                           \
                 << ": an untrusted document is refused before its "                                                   \
                    "includes are read"
#endif

struct Layout {
    fs::path root, doc, outside;
    explicit Layout(const std::string& name)
    {
        root = test::freshDir("kw_trust", name);
        doc = root / "doc";
        outside = root / "private";
        fs::create_directories(doc);
        write(outside / "secret.h", std::string("int leaked = ") + kSecret + ";\n");
        write(outside / "data.csv", std::string(kSecret) + "\n");
    }
};

CompileRequest request(const Layout& l, const std::string& source)
{
    CompileRequest r;
    r.source = source;
    r.baseDir = l.doc;
    r.nameExpressions = {};
    return r;
}

// The message of the kw::Error(Untrusted) that compiling throws.
std::string refusal(const CompileRequest& r)
{
    Compiler compiler;
    try {
        compiler.compile(r);
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Untrusted) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "compiled without a refusal";
    return {};
}

const char* kKernel = "__global__ void k(int* p) { p[0] = 1; }\n";

} // namespace

// ---- options

TEST(OptionAllowList, RefusesOptionsThatNameOrWriteFiles)
{
    for (const char* o : {"--time=/tmp/x", "-time=x", "--fdevice-time-trace=/tmp/t.json", "--create-pch=/tmp/p",
                          "--use-pch=p", "--pch-dir=/tmp", "--pch", "-I/etc", "--include-path=/etc", "-include",
                          "--pre-include=/etc/passwd", "-Xptxas=--output-file=/tmp/o", "--ptxas-options=-o x", "-DX\nY",
                          "-D1X=2", "-std=c++17 --time=x", "-arch=sm_90;x", "notanoption"}) {
        const auto why = OptionAllowList::refuse(o);
        ASSERT_TRUE(why.has_value()) << o;
        EXPECT_NE(why->find(std::string(o).substr(0, 6)), std::string::npos) << *why;
    }
}

TEST(OptionAllowList, AcceptsOptionsThatOnlyChangeCodeGeneration)
{
    for (const char* o : {"-DWIDTH=4",
                          "-DFLAG",
                          "--define-macro=N=3",
                          "-UN",
                          "-lineinfo",
                          "--generate-line-info",
                          "-G",
                          "--use_fast_math",
                          "-use_fast_math",
                          "-maxrregcount=32",
                          "--ftz=true",
                          "--prec-div=false",
                          "--fmad=false",
                          "-arch=sm_90",
                          "--gpu-architecture=compute_75",
                          "-arch=sm_90a",
                          "-std=c++20",
                          "--extra-device-vectorization",
                          "-default-device",
                          "--restrict",
                          "-w",
                          "--diag-suppress=177,550",
                          "-Xptxas=-v",
                          "--dopt=on",
                          "--split-compile=0"})
        EXPECT_FALSE(OptionAllowList::refuse(o).has_value()) << o << ": " << *OptionAllowList::refuse(o);
}

TEST(OptionAllowList, RefusesEveryControlCharacterInAMacroValue)
{
    // A value stays one argument and one line of the cache key and the logs: any byte
    // below 0x20 and DEL is refused, in -D, in --define-macro and in the document's
    // `defines`; printable values, spaces and quotes included, pass.
    int refused = 0;
    for (int c = 1; c < 0x80; ++c) {
        if (c >= 0x20 && c != 0x7f)
            continue;
        const std::string value = std::string("a") + char(c) + "b";
        EXPECT_TRUE(OptionAllowList::refuse("-DV=" + value).has_value()) << "byte " << c;
        EXPECT_TRUE(OptionAllowList::refuse("--define-macro=V=" + value).has_value()) << "byte " << c;
        CompileOptions o;
        o.defines = {{"V", value}};
        try {
            OptionAllowList::check(o);
            ADD_FAILURE() << "defines value with byte " << c << " not refused";
        } catch (const Error& e) {
            EXPECT_EQ(e.category(), ErrorCategory::Untrusted);
            EXPECT_NE(std::string(e.what()).find("options.defines.V"), std::string::npos) << e.what();
            ++refused;
        }
    }
    EXPECT_EQ(refused, 32); // 0x01..0x1f and 0x7f
    for (const char* v : {"1.5f", "a b", "\"x\"", "(1<<4)", "~!@#$%^&*"}) {
        EXPECT_FALSE(OptionAllowList::refuse(std::string("-DV=") + v).has_value()) << v;
        CompileOptions o;
        o.defines = {{"V", v}};
        EXPECT_NO_THROW(OptionAllowList::check(o)) << v;
    }
}

TEST(OptionAllowList, CheckNamesTheFieldAndTheOption)
{
    CompileOptions o;
    o.extra = {"-lineinfo", "--time=/tmp/kwb-time"};
    try {
        OptionAllowList::check(o);
        FAIL() << "not refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Untrusted);
        const std::string m = e.what();
        EXPECT_NE(m.find("options.extra[1]"), std::string::npos) << m;
        EXPECT_NE(m.find("--time=/tmp/kwb-time"), std::string::npos) << m;
    }
    o.extra.clear();
    o.defines = {{"bad name", "1"}};
    EXPECT_THROW(OptionAllowList::check(o), Error);
    o.defines.clear();
    o.std = "c++17 -include x";
    EXPECT_THROW(OptionAllowList::check(o), Error);
}

TEST(DocumentTrust, UntrustedCompileWithTimeOptionWritesNothing)
{
    Layout l("time");
    const fs::path target = l.outside / "appended.txt";
    CompileRequest r = request(l, kKernel);
    r.options.extra = {"--time=" + target.string()};
    const std::string m = refusal(r);
    EXPECT_NE(m.find("--time="), std::string::npos) << m;
    EXPECT_FALSE(fs::exists(target));

    // The user's own document may ask for it.
    r.trust = Trust::Trusted;
    Compiler compiler;
    EXPECT_TRUE(compiler.compile(r).ok);
    EXPECT_TRUE(fs::exists(target));
}

// ---- includes

TEST(DocumentTrust, AbsoluteIncludeOutsideIsRefusedWithoutQuotingTheFile)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("absolute");
    const std::string inc = "#include \"" + (l.outside / "secret.h").string() + "\"\n";
    const std::string m = refusal(request(l, inc + kKernel));
    EXPECT_NE(m.find("outside the document's folder"), std::string::npos) << m;
    EXPECT_NE(m.find(":1:"), std::string::npos) << "names the line: " << m;
    EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
    // The same through angle brackets.
    const std::string angle = "#include <" + (l.outside / "secret.h").string() + ">\n";
    refusal(request(l, angle + kKernel));
}

TEST(DocumentTrust, RelativeEscapesAreRefusedEvenThroughTheInstalledFolders)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("dotdot");
    for (const std::string inc :
         {"#include \"../private/secret.h\"", "#include <../private/secret.h>",
          "#include <../../../../../../../../etc/hostname>", "#include \"sub/../../private/secret.h\""}) {
        const std::string m = refusal(request(l, inc + "\n" + kKernel));
        EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
    }
}

TEST(DocumentTrust, SymbolicLinkLeadingOutIsRefused)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("symlink");
    if (const std::string no = symlinkOrWhyNot(l.outside / "secret.h", l.doc / "innocent.h"); !no.empty())
        GTEST_SKIP() << no;
    ASSERT_EQ(symlinkOrWhyNot(l.outside, l.doc / "lib"), "");
    for (const std::string inc : {"#include \"innocent.h\"", "#include \"lib/secret.h\""}) {
        const std::string m = refusal(request(l, inc + "\n" + kKernel));
        EXPECT_NE(m.find("outside the document's folder"), std::string::npos) << m;
        EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
    }
}

TEST(DocumentTrust, IncludeSpellingsThePreprocessorAcceptsAreAllChecked)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("spellings");
    const std::string secret = (l.outside / "secret.h").string();
    for (const std::string inc :
         {"#inc\\\nlude \"" + secret + "\"", "#/* c */include \"" + secret + "\"",
          "  #  include \"" + secret + "\" // c", "%:include \"" + secret + "\"", "#include_next \"" + secret + "\"",
          "#import \"" + secret + "\"", "#if __has_include(\"" + secret + "\")\n#endif"})
        refusal(request(l, inc + "\n" + kKernel));
    // Text that only looks like an include is left alone.
    CompileRequest r = request(
        l, "// #include \"" + secret + "\"\n__device__ const char* s = \"#include <" + secret + ">\";\n" + kKernel);
    Compiler compiler;
    EXPECT_TRUE(compiler.compile(r).ok);
}

TEST(DocumentTrust, ComputedIncludeIsRefused)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("computed");
    const std::string m
        = refusal(request(l, "#define H \"" + (l.outside / "secret.h").string() + "\"\n#include H\n" + kKernel));
    EXPECT_NE(m.find("macro"), std::string::npos) << m;
    EXPECT_NE(m.find(":2:"), std::string::npos) << m;
}

// Windows has no FIFOs in the file system (its named pipes live under \\.\pipe\,
// which no include can name), so these two are POSIX's.
#ifndef _WIN32
TEST(DocumentTrust, FifoIsRefusedWithoutBlocking)
{
    Layout l("fifo");
    ASSERT_EQ(::mkfifo((l.doc / "pipe.h").c_str(), 0600), 0);
    auto done = std::async(std::launch::async, [&] {
        Compiler compiler;
        return compiler.compile(request(l, "#include \"pipe.h\"\n" + std::string(kKernel)));
    });
    ASSERT_EQ(done.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the include blocked";
    const CompileResult r = done.get();
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_NE(r.diagnostics[0].message.find("not a regular file"), std::string::npos);
    EXPECT_EQ(r.diagnostics[0].line, 1);
}

// Trusted, the include is still never read, and the message stands at the directive of
// the file that names it (a header here), not at line 0.
TEST(DocumentTrust, ATrustedFifoIsRefusedAtTheLineThatIncludesIt)
{
    Layout l("fifo-trusted");
    ASSERT_EQ(::mkfifo((l.doc / "pipe.h").c_str(), 0600), 0);
    write(l.doc / "outer.h", "// outer\n\n#include \"pipe.h\"\n");
    CompileRequest r = request(l, "\n#include \"outer.h\"\n" + std::string(kKernel));
    r.trust = Trust::Trusted;
    auto done = std::async(std::launch::async, [&] { return Compiler().compile(r); });
    ASSERT_EQ(done.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the include blocked";
    const CompileResult got = done.get();
    EXPECT_FALSE(got.ok);
    ASSERT_EQ(got.diagnostics.size(), 1u);
    EXPECT_NE(got.diagnostics[0].message.find("not a regular file"), std::string::npos);
    EXPECT_EQ(got.diagnostics[0].line, 3);
    EXPECT_EQ(fs::path(got.diagnostics[0].file).filename(), "outer.h");
}
#endif

TEST(DocumentTrust, MissingQuotedIncludeIsNotLookedUpInTheWorkingFolder)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("cwd");
    // A header of that name in the working folder must not be found.
    const fs::path cwd = fs::current_path();
    const fs::path elsewhere = l.root / "cwd";
    write(elsewhere / "helper.h", "#define FROM_CWD 1\n");
    fs::current_path(elsewhere);
    Compiler compiler;
    const auto missing = compiler.compile(request(l, "#include \"helper.h\"\n" + std::string(kKernel)));
    fs::current_path(cwd);
    ASSERT_FALSE(missing.ok);
    ASSERT_EQ(missing.diagnostics.size(), 1u) << missing.log;
    EXPECT_EQ(missing.diagnostics[0].line, 1);
    EXPECT_EQ(missing.diagnostics[0].column, 10);
    EXPECT_NE(missing.diagnostics[0].message.find("cannot open source file \"helper.h\""), std::string::npos);

    // When the document's folder has one, that one is used, not the working folder's.
    write(l.doc / "helper.h", "#define FROM_DOC 1\n");
    write(elsewhere / "helper.h", "#error the working folder's header was used\n");
    fs::current_path(elsewhere);
    const auto r = compiler.compile(
        request(l, "#include \"helper.h\"\n#ifndef FROM_DOC\n#error no\n#endif\n" + std::string(kKernel)));
    fs::current_path(cwd);
    EXPECT_TRUE(r.ok) << (r.diagnostics.empty() ? r.log : r.diagnostics[0].message);
}

TEST(DocumentTrust, OwnHeadersNestedAndInstalledHeadersStillWork)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("own");
    write(l.doc / "inc" / "a.h", "#pragma once\n#include \"b.h\"\n#define A (B + 1)\n");
    write(l.doc / "inc" / "b.h", "#define B 41\n");
    CompileRequest r = request(l,
                               "#include \"inc/a.h\"\n#include <cuda_fp16.h>\n#include \"cuda_bf16.h\"\n"
                               "#include <cstdint>\n#include <cuda/std/limits>\n"
                               "static_assert(A == 42, \"nested own header\");\n"
                                   + std::string(kKernel));
    Compiler compiler;
    const auto res = compiler.compile(r);
    EXPECT_TRUE(res.ok) << res.log;
    // An include folder inside the document's folder is searched; one outside is refused.
    CompileRequest withDir = request(l, "#include \"b.h\"\n" + std::string(kKernel));
    withDir.options.includeDirs = {"inc"};
    EXPECT_TRUE(compiler.compile(withDir).ok);
    withDir.options.includeDirs = {l.outside.string()};
    withDir.source = "#include \"secret.h\"\n" + std::string(kKernel);
    const std::string m = refusal(withDir);
    EXPECT_NE(m.find("options.include_dirs[0]"), std::string::npos) << m;
}

TEST(DocumentTrust, ASourceFileInASubfolderFindsTheHeadersBesideIt)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("subfolder");
    write(l.doc / "src" / "scan.cuh", "#define SCAN 3\n");
    CompileRequest r = request(l, "#include \"scan.cuh\"\nstatic_assert(SCAN == 3, \"\");\n" + std::string(kKernel));
    r.sourceName = "src/scan.cu";
    Compiler compiler;
    const auto res = compiler.compile(r);
    EXPECT_TRUE(res.ok) << (res.diagnostics.empty() ? res.log : res.diagnostics[0].message);
}

TEST(DocumentTrust, HeaderErrorsInsideTheFolderStillReachTheUser)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("errors");
    // Device code: a host declaration in a header is left out like one in the source.
    write(l.doc / "broken.h", "__device__ int broken = undefined_thing;\n");
    Compiler compiler;
    const auto r = compiler.compile(request(l, "#include \"broken.h\"\n" + std::string(kKernel)));
    ASSERT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "broken.h");
    EXPECT_EQ(r.diagnostics[0].line, 1);
}

TEST(DocumentTrust, UserIncludeFoldersFromTheCommandLineAreReadable)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("userdirs");
    write(l.outside / "tool.h", "#define TOOL 7\n");
    CompileRequest r = request(l, "#include \"tool.h\"\nstatic_assert(TOOL == 7, \"\");\n" + std::string(kKernel));
    r.userIncludeDirs = {l.outside};
    Compiler compiler;
    EXPECT_TRUE(compiler.compile(r).ok);
}

// ---- files a document names

namespace {
// `text` as a JSON string, quoted and escaped (a Windows path has backslashes).
std::string jsonString(const std::string& text) { return nlohmann::json(text).dump(); }

std::string docJson(const std::string& sourcePart, const std::string& bufferInit = "{\"kind\": \"zeros\"}")
{
    return R"({"format": "kernel-workbench", "version": 1, )" + sourcePart + R"(, "kernel": "k",
      "buffers": [{"name": "p", "dtype": "i32", "count": "1", "init": )"
        + bufferInit + R"(}],
      "args": [{"name": "p", "buffer": "p"}], "launch": {"grid": [1,1,1], "block": [1,1,1]}})";
}

ErrorCategory categoryOf(const std::function<void()>& f, std::string* message = nullptr)
{
    try {
        f();
    } catch (const Error& e) {
        if (message)
            *message = e.what();
        return e.category();
    }
    return ErrorCategory::Internal;
}
} // namespace

TEST(DocumentTrust, SourceFileOutsideTheFolderIsRefused)
{
    Layout l("source_file");
    write(l.outside / "k.cu", kKernel);
    std::vector<std::string> files{(l.outside / "k.cu").string(), "../private/k.cu"};
    const std::string noLink = symlinkOrWhyNot(l.outside / "k.cu", l.doc / "link.cu");
    if (noLink.empty())
        files.push_back("link.cu");
    const fs::path where = l.doc / "d.kwb";
    for (const std::string& file : files) {
        std::string m;
        EXPECT_EQ(
            categoryOf([&] { DocumentReader::readString(docJson("\"source_file\": " + jsonString(file)), where); }, &m),
            ErrorCategory::Untrusted)
            << file;
        EXPECT_NE(m.find("source_file"), std::string::npos) << m;
        // The user's own document may.
        EXPECT_EQ(
            DocumentReader::readString(docJson("\"source_file\": " + jsonString(file)), where, Trust::Trusted).source,
            kKernel);
    }
    write(l.doc / "k.cu", kKernel);
    EXPECT_EQ(DocumentReader::readString(docJson(R"("source_file": "k.cu")"), where).source, kKernel);
    if (!noLink.empty())
        GTEST_SKIP() << "the link leading out was not tried: " << noLink;
}

TEST(DocumentTrust, InitialiserFileOutsideTheFolderIsRefused)
{
    Layout l("init");
    const fs::path where = l.doc / "d.kwb";
    const std::string src = R"("source": "__global__ void k(int* p) {}")";
    for (const std::string file : {(l.outside / "data.csv").string(), std::string("../private/data.csv")}) {
        const Document doc
            = DocumentReader::parse(docJson(src, R"({"kind": "file", "path": )" + jsonString(file) + "}"), where);
        const VariableScope scope = VariableScope::evaluate({});
        std::string m;
        EXPECT_EQ(categoryOf(
                      [&] { BufferFactory(scope, doc.baseDir(), doc.trust).create(doc.buffers[0], "buffers[0]"); }, &m),
                  ErrorCategory::Untrusted)
            << file;
        EXPECT_NE(m.find("buffers[0].init.path"), std::string::npos) << m;
        EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
    }
}

TEST(DocumentTrust, CsvErrorsNameThePositionNotTheText)
{
    Layout l("csv");
    write(l.doc / "bad.csv", std::string(kSecret) + "\n");
    const fs::path where = l.doc / "d.kwb";
    const std::string src = R"("source": "__global__ void k(int* p) {}")";
    const Document doc = DocumentReader::parse(docJson(src, R"({"kind": "file", "path": "bad.csv"})"), where);
    const VariableScope scope = VariableScope::evaluate({});
    std::string m;
    categoryOf([&] { BufferFactory(scope, doc.baseDir(), doc.trust).create(doc.buffers[0], "buffers[0]"); }, &m);
    EXPECT_NE(m.find("is not a number"), std::string::npos) << m;
    EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
}

TEST(DocumentTrust, RequestsListOptionsAndFiles)
{
    Document d;
    d.sourceFile = "k.cu";
    d.source = "#include \"helper.h\"\n#include <cuda_fp16.h>\n__global__ void k() {}\n";
    d.options.extra = {"--time=x"};
    d.options.defines = {{"N", "4"}};
    d.options.includeDirs = {"../inc"};
    BufferSpec b;
    b.name = "in";
    b.init.kind = Initialiser::Kind::File;
    b.init.file = "data.npy";
    d.buffers = {b};
    const auto r = documentRequests(d);
    auto has = [&](const std::string& field, const std::string& value) {
        return std::any_of(r.begin(), r.end(),
                           [&](const DocumentRequest& q) { return q.field == field && q.value == value; });
    };
    EXPECT_TRUE(has("source_file", "k.cu"));
    EXPECT_TRUE(has("options.extra[0]", "--time=x"));
    EXPECT_TRUE(has("options.defines", "-DN=4"));
    EXPECT_TRUE(has("options.include_dirs[0]", "../inc"));
    EXPECT_TRUE(has("buffers[0].init.path", "data.npy"));
    EXPECT_TRUE(has("line 1", "#include \"helper.h\""));
    EXPECT_TRUE(has("line 2", "#include <cuda_fp16.h>"));
    EXPECT_TRUE(documentRequests(Document{}).empty());
}

TEST(ConfinedFolder, JudgesPathsAsWrittenAndAfterLinks)
{
    Layout l("confined");
    write(l.doc / "a" / "x.h", "");
    const ConfinedFolder f(l.doc);
    EXPECT_EQ(f.resolveFile("a/x.h").status, ConfinedFolder::Status::Inside);
    EXPECT_EQ(f.resolveFile("a/../a/x.h").status, ConfinedFolder::Status::Inside);
    EXPECT_EQ(f.resolveFile("missing.h").status, ConfinedFolder::Status::Missing);
    EXPECT_EQ(f.resolveFile("a").status, ConfinedFolder::Status::NotRegular);
    EXPECT_EQ(f.resolveFolder("a").status, ConfinedFolder::Status::Inside);
    EXPECT_EQ(f.resolveFile("../private/secret.h").status, ConfinedFolder::Status::Outside);
    // A sibling whose name starts with the folder's is not inside it.
    write(l.root / "doc2" / "y.h", "");
    EXPECT_EQ(f.resolveFile("../doc2/y.h").status, ConfinedFolder::Status::Outside);
    EXPECT_EQ(f.resolveFile(l.root / "doc2" / "y.h").status, ConfinedFolder::Status::Outside);
    // Outside paths are refused without looking: a missing one is "outside" too.
    EXPECT_EQ(f.resolveFile("/nonexistent/z.h").status, ConfinedFolder::Status::Outside);
    // An unsaved document has no folder.
    EXPECT_EQ(ConfinedFolder({}).resolveFile("x.h").status, ConfinedFolder::Status::Missing);
    EXPECT_EQ(ConfinedFolder({}).resolveFile("/etc/hostname").status, ConfinedFolder::Status::Outside);
}

// ---- the preprocessor's first phases: every reading of the source is checked
TEST(DocumentTrust, SplicesTrigraphsAndLineEndsCannotHideAnInclude)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("readings");
    const std::string secret = (l.outside / "secret.h").string();
    for (const std::string inc : {
             "#inc\\\r\nlude \"" + secret + "\"",                                      // a splice with CR LF
             "#inc\\ \nlude \"" + secret + "\"",                                       // backslash, space, line end
             "#include \"" + secret.substr(0, 4) + "\\\r\n" + secret.substr(4) + "\"", // inside the name
             "?\?=include \"" + secret + "\"",                                         // a trigraph '#'
             "#define X ?\?/\n#include \"" + secret + "\"", // a trigraph splice that C++17 does not make
             "int x;\r#include \"" + secret + "\"",         // a lone CR as a line end
         }) {
        CompileRequest r = request(l, inc + "\n" + kKernel);
        r.options.std = "c++14";
        const std::string m = refusal(r);
        EXPECT_NE(m.find("outside the document's folder"), std::string::npos) << inc << ": " << m;
        EXPECT_EQ(m.find(kSecret), std::string::npos) << m;
    }
}

TEST(DocumentTrust, AReadingKeepsTheLineNumbersOfTheSource)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("readinglines");
    const std::string secret = (l.outside / "secret.h").string();
    const std::string m
        = refusal(request(l, "int a;\n#define Y 1 \\\r\n  + 2\n#inc\\\r\nlude \"" + secret + "\"\n" + kKernel));
    EXPECT_NE(m.find(":4:"), std::string::npos) << m;
}

TEST(DocumentTrust, HasIncludeOfAMacroAndLineWithAFileAreRefused)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("probes");
    const std::string secret = (l.outside / "secret.h").string();
    const std::string m = refusal(request(l, "#define P <" + secret + ">\n#if __has_include(P)\n#endif\n" + kKernel));
    EXPECT_NE(m.find("__has_include without a file name"), std::string::npos) << m;
    refusal(request(l, "#define Q(x) __has_include(x)\n" + std::string(kKernel)));
    const std::string line = refusal(request(l, "#line 1 \"/etc/passwd\"\n" + std::string(kKernel)));
    EXPECT_NE(line.find("#line"), std::string::npos) << line;
    // A plain line number is fine.
    Compiler compiler;
    EXPECT_TRUE(compiler.compile(request(l, "#line 40\n" + std::string(kKernel))).ok);
}

TEST(DocumentTrust, ANulInAnIncludeIsShownNotCut)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("nul");
    const std::string m = refusal(request(l, std::string("#include \"../a\0b.h\"\n", 20) + kKernel));
    EXPECT_NE(m.find("\\x00b.h"), std::string::npos) << m;
}

TEST(DocumentTrust, RequestsListAnIncludeHiddenByASplice)
{
    Document d;
    d.source = "#inc\\\r\nlude \"/etc/passwd\"\n?\?=include \"/etc/shadow\"\n__global__ void k() {}\n";
    const auto r = documentRequests(d);
    auto has = [&](const std::string& field, const std::string& value) {
        return std::any_of(r.begin(), r.end(),
                           [&](const DocumentRequest& q) { return q.field == field && q.value == value; });
    };
    EXPECT_TRUE(has("line 1", "#include \"/etc/passwd\"")) << r.size();
    EXPECT_TRUE(has("line 3", "#include \"/etc/shadow\""));
}

TEST(DocumentTrust, RequestsListTheImagesOfTheDescription)
{
    Document d;
    d.description = "See ![the grid](grid.png) and ![](/dev/zero \"zero\").\n![broken](\nnot.png)\n";
    const auto r = documentRequests(d);
    std::vector<std::string> images;
    for (const auto& q : r)
        if (q.field == "description image")
            images.push_back(q.value);
    EXPECT_EQ(images, (std::vector<std::string>{"grid.png", "/dev/zero"}));
}

TEST(DocumentTrust, WithoutASandboxAnUntrustedDocumentIsRefusedAndATrustedOneCompiles)
{
    Layout l("nosandbox");
    std::string m;
    bool ok = false;
    {
        const kw::test::ScopedEnvironment noLandlock("KWB_TEST_NO_LANDLOCK", "1");
        m = refusal(request(l, kKernel));
        CompileRequest trusted = request(l, kKernel);
        trusted.trust = Trust::Trusted;
        Compiler compiler;
        ok = compiler.compile(trusted).ok;
    }
#ifdef __linux__
    EXPECT_NE(m.find("Landlock"), std::string::npos) << m;
#else
    EXPECT_NE(m.find("its sandbox exists on Linux only"), std::string::npos) << m;
#endif
    EXPECT_NE(m.find("not compiled"), std::string::npos) << m;
    EXPECT_TRUE(ok);
}

TEST(TrustManifest, ListsEveryFileTheDocumentBringsInsideItsFolder)
{
    Layout l("manifest");
    write(l.doc / "k.cu", "#include \"inc/helper.h\"\n__global__ void k(int* p) { p[0] = one(); }\n");
    write(l.doc / "inc" / "helper.h", "#include \"inner.h\"\n");
    write(l.doc / "inc" / "inner.h", "__device__ int one() { return 1; }\n");
    write(l.doc / "data.csv", "1\n");
    write(l.doc / "grid.png", "png");
    Document d;
    d.path = l.doc / "doc.kwb";
    d.sourceFile = "k.cu";
    d.source = "#include \"inc/helper.h\"\n__global__ void k(int* p) { p[0] = one(); }\n";
    d.description = "![grid](grid.png) ![secret](../private/data.csv)";
    BufferSpec b;
    b.name = "in";
    b.init.kind = Initialiser::Kind::File;
    b.init.file = "data.csv";
    d.buffers = {b};
    std::vector<std::string> shown, roles;
    for (const BroughtFile& f : TrustManifest::filesOf(d)) {
        shown.push_back(f.shownAs);
        roles.push_back(f.role);
        EXPECT_TRUE(fs::is_regular_file(f.path)) << f.path;
    }
    EXPECT_EQ(shown, (std::vector<std::string>{"data.csv", "grid.png", "inc/helper.h", "inc/inner.h", "k.cu"}));
    EXPECT_NE(std::find(roles.begin(), roles.end(), "#include \"inner.h\""), roles.end());
    EXPECT_NE(std::find(roles.begin(), roles.end(), "buffers[0].init.path"), roles.end());
}

TEST(DocumentTrust, AMissingIncludeInAnInactiveBranchIsNeverAnError)
{
    SKIP_WHERE_UNTRUSTED_IS_NOT_COMPILED();
    Layout l("inactive");
    const std::string source = "#ifdef TIMING\n#include \"timing.h\"\n#endif\n" + std::string(kKernel);
    Compiler compiler;
    const auto quiet = compiler.compile(request(l, source));
    EXPECT_TRUE(quiet.ok) << quiet.log;
    // Active, it is an error at its line in the gate's words.
    CompileRequest active = request(l, source);
    active.options.defines = {{"TIMING", ""}};
    const auto loud = compiler.compile(active);
    ASSERT_FALSE(loud.ok);
    ASSERT_FALSE(loud.diagnostics.empty()) << loud.log;
    EXPECT_EQ(loud.diagnostics[0].line, 2);
    EXPECT_NE(loud.diagnostics[0].message.find("cannot open source file \"timing.h\" (looked in"), std::string::npos)
        << loud.diagnostics[0].message;
}

TEST(TrustManifest, HeadersBeyondARefusedIncludeAreStillListed)
{
    Layout l("manifestrefused");
    write(l.doc / "helper.h", "#include \"inner.h\"\n");
    write(l.doc / "inner.h", "__device__ int one() { return 1; }\n");
    Document d;
    d.path = l.doc / "doc.kwb";
    d.source = "#include \"../private/secret.h\"\n#include \"helper.h\"\n" + std::string(kKernel);
    std::vector<std::string> shown;
    for (const BroughtFile& f : TrustManifest::filesOf(d))
        shown.push_back(f.shownAs);
    EXPECT_EQ(shown, (std::vector<std::string>{"helper.h", "inner.h"}));
    // admit() itself still refuses at the first one.
    const ConfinedFolder folder(l.doc);
    EXPECT_THROW(IncludeGate(folder, {}, {}).admit(d.source, "kernel.cu"), Error);
    const auto all = IncludeGate(folder, {}, {}).admitAll(d.source, "kernel.cu");
    ASSERT_EQ(all.refused.size(), 1u);
    EXPECT_EQ(all.refused[0].line, 1);
}
