#include "compile/Compiler.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/SignatureParser.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kw;
namespace fs = std::filesystem;

namespace {

CompileResult compileSource(const std::string& source, CompileOptions options = {})
{
    Compiler compiler;
    CompileRequest req;
    req.source = source;
    req.options = std::move(options);
    return compiler.compile(req);
}

std::string describe(const CompileResult& r) { return r.log; }

fs::path freshDir(const std::string& name) { return test::freshDir("kw_test_compile", name); }

} // namespace

TEST(Compile, SimpleKernelGivesPtxEntriesAndLoweredNames)
{
    auto r = compileSource("__global__ void add(float* a, const float* b, int n)\n"
                           "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i]; }\n");
    ASSERT_TRUE(r.ok) << describe(r);
    EXPECT_FALSE(r.cacheHit);
    EXPECT_GT(r.compileMs, 0.0);
    EXPECT_EQ(r.arch, Compiler::defaultVirtualArch());
    EXPECT_TRUE(r.cubin.empty()) << "a virtual arch gives PTX only";
    EXPECT_NE(r.ptx.find(".entry"), std::string::npos);
    ASSERT_EQ(r.loweredNames.count("add"), 1u);
    EXPECT_EQ(r.loweredNames["add"], "_Z3addPfPKfi");
    ASSERT_EQ(r.entries.size(), 1u);
    EXPECT_EQ(r.entries[0].name, r.loweredNames["add"]);
    ASSERT_EQ(r.entries[0].params.size(), 3u);
    EXPECT_EQ(r.entries[0].params[2].size, 4u);
    ASSERT_EQ(r.kernels.size(), 1u);
    EXPECT_EQ(r.kernels[0].name, "add");
    EXPECT_NE(r.ptx.find(".loc"), std::string::npos) << "-lineinfo is on by default";
}

TEST(Compile, DefaultArchIsTheLowestNvrtcSupports)
{
    const auto& archs = NvrtcLibrary::instance().supportedArchs();
    ASSERT_FALSE(archs.empty());
    EXPECT_EQ(Compiler::defaultVirtualArch(), "compute_" + std::to_string(archs.front()));
    if (NvrtcLibrary::instance().major() == 13)
        EXPECT_EQ(Compiler::defaultVirtualArch(), "compute_75");
    EXPECT_FALSE(Compiler::nvrtcVersion().empty());
}

TEST(Compile, RealArchAlsoGivesCubin)
{
    CompileOptions o;
    o.arch = "sm_" + std::to_string(NvrtcLibrary::instance().supportedArchs().front());
    auto r = compileSource("__global__ void k(int* x) { x[0] = 1; }\n", o);
    ASSERT_TRUE(r.ok) << describe(r);
    ASSERT_GT(r.cubin.size(), 4u);
    EXPECT_EQ(std::string(r.cubin.data() + 1, 3), "ELF");
    EXPECT_FALSE(r.ptx.empty());
    EXPECT_EQ(r.arch, o.arch);
}

TEST(Compile, UserErrorIsAValueWithDiagnostics)
{
    auto r = compileSource("__global__ void add(float* a, int n)\n"
                           "{\n"
                           "    a[0] = b[0];\n"
                           "}\n");
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.ptx.empty());
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const auto& d = r.diagnostics[0];
    EXPECT_EQ(d.file, "kernel.cu");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, 12);
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_NE(d.message.find("\"b\" is undefined"), std::string::npos);
    ASSERT_EQ(r.kernels.size(), 1u) << "signatures come from the source even when it fails";
}

TEST(Compile, BadOptionIsAValue)
{
    // The user's own options reach NVRTC as typed; an untrusted document's would
    // be refused before (test_document_trust).
    Compiler compiler;
    CompileRequest req;
    req.source = "__global__ void k() {}\n";
    req.options.extra = {"--no-such-option"};
    req.trust = Trust::Trusted;
    auto r = compiler.compile(req);
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_NE(r.diagnostics[0].message.find("--no-such-option"), std::string::npos);
}

TEST(Compile, OptionsReachNvrtc)
{
    CompileOptions o;
    o.defines = {{"VALUE", "42"}, {"FLAG", ""}};
    o.fastMath = true;
    o.lineInfo = false;
    auto r = compileSource("#ifndef FLAG\n#error FLAG missing\n#endif\n"
                           "__global__ void k(int* x) { x[0] = VALUE; }\n",
                           o);
    ASSERT_TRUE(r.ok) << describe(r);
    EXPECT_EQ(r.ptx.find(".loc"), std::string::npos);
    EXPECT_NE(r.ptx.find("42"), std::string::npos);
    auto args = o.toNvrtcArgs();
    EXPECT_NE(std::find(args.begin(), args.end(), "-DVALUE=42"), args.end());
    EXPECT_NE(std::find(args.begin(), args.end(), "-DFLAG"), args.end());
    EXPECT_NE(std::find(args.begin(), args.end(), "--use_fast_math"), args.end());
    EXPECT_NE(std::find(args.begin(), args.end(), "-std=c++17"), args.end());
}

TEST(Compile, TemplateKernelByInstantiationName)
{
    Compiler compiler;
    CompileRequest req;
    req.source = "template <typename T, int N>\n"
                 "__global__ void scale(T* x, T f) { x[threadIdx.x % N] *= f; }\n";
    req.nameExpressions = {"scale<float,128>", "scale<double, 4>"};
    auto r = compiler.compile(req);
    ASSERT_TRUE(r.ok) << describe(r);
    ASSERT_EQ(r.loweredNames.size(), 2u);
    EXPECT_EQ(r.loweredNames["scale<float,128>"], "_Z5scaleIfLi128EEvPT_S0_");
    EXPECT_EQ(r.loweredNames["scale<double, 4>"], "_Z5scaleIdLi4EEvPT_S0_");
    ASSERT_EQ(r.entries.size(), 2u);
    for (const auto& [expr, lowered] : r.loweredNames) {
        const std::string& name = lowered; // clang 14 cannot capture a structured binding
        auto it = std::find_if(r.entries.begin(), r.entries.end(), [&](const PtxEntry& e) { return e.name == name; });
        ASSERT_NE(it, r.entries.end()) << lowered;
        auto sig = instantiate(r.kernels.at(0), expr);
        ASSERT_EQ(sig.params.size(), it->params.size());
        EXPECT_EQ(it->params[0].size, 8u);
        EXPECT_EQ(it->params[1].size, sig.params[1].baseType == "double" ? 8u : 4u);
    }
}

TEST(Compile, UnknownNameExpressionIsReported)
{
    Compiler compiler;
    CompileRequest req;
    req.source = "__global__ void k() {}\n";
    req.nameExpressions = {"missing"};
    auto r = compiler.compile(req);
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_NE(r.log.find("missing"), std::string::npos);
}

TEST(Compile, KernelCompiledOutDoesNotBreakTheBuild)
{
    auto r = compileSource(
        "#ifdef NOT_DEFINED\n__global__ void old(int x) {}\n#endif\n__global__ void now(int* x) { *x = 1; }\n");
    ASSERT_TRUE(r.ok) << describe(r);
    EXPECT_EQ(r.loweredNames.count("old"), 0u);
}

TEST(Compile, ExternCKernelKeepsItsName)
{
    auto r = compileSource("extern \"C\" __global__ void plain(float* x) { x[0] = 0; }\n");
    ASSERT_TRUE(r.ok) << describe(r);
    EXPECT_EQ(r.loweredNames["plain"], "plain");
    ASSERT_EQ(r.entries.size(), 1u);
    EXPECT_EQ(r.entries[0].name, "plain");
}

struct IncludeCase {
    const char* header;
    const char* body;
};

class BuiltinInclude : public ::testing::TestWithParam<IncludeCase> { };

TEST_P(BuiltinInclude, Compiles)
{
    const auto& c = GetParam();
    std::string src = std::string("#include <") + c.header + ">\n__global__ void k(float* f, int* i, double* d)\n{\n"
        + c.body + "\n}\n";
    auto r = compileSource(src);
    EXPECT_TRUE(r.ok) << c.header << "\n" << r.log;
    for (const auto& d : r.diagnostics)
        EXPECT_NE(d.severity, Severity::Warning) << c.header << ": " << d.message;
}

INSTANTIATE_TEST_SUITE_P(
    Headers, BuiltinInclude,
    ::testing::Values(
        IncludeCase{"cstdio", "printf(\"%d\\n\", i[0]); std::printf(\"x\\n\");"},
        IncludeCase{"stdio.h", "printf(\"%f\\n\", f[0]);"},
        IncludeCase{"cstdint",
                    "std::uint32_t u = UINT32_MAX; int64_t s = INT64_MIN; uintptr_t p = 0; "
                    "i[0] = (int)(u + s + p + sizeof(std::int8_t) + INT32_C(3));"},
        IncludeCase{"stdint.h", "uint8_t b = UINT8_MAX; i[0] = b + (int)SIZE_MAX;"},
        IncludeCase{"cmath",
                    "f[0] = std::sqrt(f[1]) + std::fabs(f[2]) + std::isnan(f[3]) + std::pow(f[4], 2.0f); "
                    "d[0] = std::exp(d[1]) + M_PI + std::floor(d[2]) + std::fma(d[0], d[1], d[2]);"},
        IncludeCase{"math.h", "f[0] = sqrtf(f[1]) + (float)M_PI; f[1] = INFINITY; f[2] = NAN; d[0] = HUGE_VAL;"},
        IncludeCase{"cassert", "assert(i[0] >= 0);"},
        IncludeCase{"assert.h", "assert(f != nullptr && \"must be set\");"},
        IncludeCase{"climits",
                    "i[0] = INT_MAX - CHAR_BIT + SHRT_MIN; long long l = LLONG_MAX; d[0] = (double)l + ULLONG_MAX;"},
        IncludeCase{"cfloat", "f[0] = FLT_MAX + FLT_EPSILON + FLT_MIN; d[0] = DBL_MAX + DBL_EPSILON;"},
        IncludeCase{"cstddef",
                    "std::size_t n = sizeof(float); std::ptrdiff_t p = &f[1] - &f[0]; "
                    "std::nullptr_t z = nullptr; i[0] = (int)(n + p + offsetof(int2, y)) + (z == nullptr);"},
        IncludeCase{"cstdlib", "int* m = (int*)malloc(16); i[0] = abs(-3) + std::abs(-4); free(m);"},
        IncludeCase{"cuda_fp16.h", "__half h = __float2half(f[0]); f[1] = __half2float(__hadd(h, h));"},
        IncludeCase{"cuda_bf16.h", "__nv_bfloat16 b = __float2bfloat16(f[0]); f[1] = __bfloat162float(b);"},
        IncludeCase{"cuda/std/cstdint", "cuda::std::uint64_t u = 1; i[0] = (int)u;"},
        IncludeCase{"cuda/std/limits", "f[0] = cuda::std::numeric_limits<float>::max();"}));

TEST(Compile, BuiltinAndCcclHeadersMix)
{
    auto r = compileSource("#include <cstdint>\n#include <climits>\n#include <cuda/std/cstdint>\n"
                           "#include <cuda/std/climits>\n"
                           "__global__ void k(std::uint64_t* x) { x[0] = cuda::std::uint64_t(INT_MAX); }\n");
    EXPECT_TRUE(r.ok) << r.log;
    for (const auto& d : r.diagnostics)
        EXPECT_NE(d.severity, Severity::Warning) << d.message;
}

TEST(Compile, QuotedIncludesBesideTheSourceAndInIncludeDirs)
{
    fs::path dir = freshDir("quoted");
    fs::create_directories(dir / "inc");
    std::ofstream(dir / "helper.h")
        << "#pragma once\n#include \"more.h\"\n__device__ int helper(int x) { return x + MORE; }\n";
    std::ofstream(dir / "inc" / "more.h") << "#pragma once\n#define MORE 7\n";
    Compiler compiler;
    CompileRequest req;
    req.source = "#include \"helper.h\"\n__global__ void k(int* x) { x[0] = helper(1); }\n";
    req.sourceName = "main.cu";
    req.baseDir = dir;
    req.options.includeDirs = {"inc"};
    auto r = compiler.compile(req);
    ASSERT_TRUE(r.ok) << r.log;
    ASSERT_EQ(r.includedFiles.size(), 2u);
    EXPECT_EQ(fs::path(r.includedFiles[0]).filename(), "helper.h");
    EXPECT_EQ(fs::path(r.includedFiles[1]).filename(), "more.h");

    req.options.includeDirs.clear();
    auto missing = compiler.compile(req);
    EXPECT_FALSE(missing.ok);
    ASSERT_FALSE(missing.diagnostics.empty());
    EXPECT_NE(missing.diagnostics[0].file.find("helper.h"), std::string::npos);
}

TEST(Compile, NvrtcCandidatesStartWithTheEnvironment)
{
    const auto names = [] {
        const kw::test::ScopedEnvironment nvrtc("KWB_NVRTC", "/nonexistent/libnvrtc-test.so");
        return NvrtcLibrary::candidateNames();
    }();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names[0], "/nonexistent/libnvrtc-test.so");
#ifdef _WIN32
    EXPECT_NE(std::find(names.begin(), names.end(), "nvrtc64_130_0.dll"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "nvrtc64_120_0.dll"), names.end());
    // Beside the executable, where the installer puts it: a folder's candidates are the
    // files that are there (the order itself: test_windows_nvrtc_search).
    const fs::path beside = kw::executableDir() / "nvrtc64_130_0.dll";
    EXPECT_EQ(std::find(names.begin(), names.end(), beside.string()) != names.end(), fs::is_regular_file(beside));
#else
    EXPECT_NE(std::find(names.begin(), names.end(), "libnvrtc.so.13"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "libnvrtc.so.12"), names.end());
#endif
}

TEST(Compile, MissingNvrtcIsAnErrorThatListsWhatWasTried)
{
    try {
        NvrtcLibrary::open({"/nonexistent/libnvrtc-a.so", "/nonexistent/libnvrtc-b.so"});
        FAIL() << "opened a library that does not exist";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Nvrtc);
        std::string msg = e.what();
        EXPECT_NE(msg.find("/nonexistent/libnvrtc-a.so"), std::string::npos) << msg;
        EXPECT_NE(msg.find("/nonexistent/libnvrtc-b.so"), std::string::npos) << msg;
        EXPECT_NE(msg.find("KWB_NVRTC"), std::string::npos) << msg;
    }
#ifdef _WIN32
    try { // a DLL that loads but is not NVRTC
        NvrtcLibrary::open({"kernel32.dll"});
        FAIL() << "kernel32 is not NVRTC";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Nvrtc);
        EXPECT_NE(std::string(e.what()).find("lacks nvrtc"), std::string::npos) << e.what();
    }
#endif
#ifdef __linux__
    try {
        NvrtcLibrary::open({"libm.so.6"});
        FAIL() << "libm is not NVRTC";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Nvrtc);
        EXPECT_NE(std::string(e.what()).find("lacks nvrtc"), std::string::npos) << e.what();
    }
#endif
}

// nvcc's implicit environment (BuiltinHeaders::kNvccEnvironment) is there in every
// dialect, and the headers that define the same names for NVRTC take them over without a
// warning (libcu++ defines INFINITY and NAN as macros of its own).
TEST(Compile, TheImplicitNamesOfNvccCompileInEveryDialectWithoutAWarning)
{
    const std::string kernel
        = "__global__ void k(float* o) { o[0] = INFINITY + NAN + (float)M_PI + INT_MAX + RAND_MAX; }\n";
    for (const char* std : {"c++03", "c++11", "c++14", "c++17", "c++20"}) {
        CompileOptions o;
        o.std = std;
        const auto r = compileSource(kernel, o);
        EXPECT_TRUE(r.ok) << std << ": " << describe(r);
        EXPECT_TRUE(r.diagnostics.empty()) << std << ": " << describe(r);
    }
    for (const char* header : {"cuda/std/cmath", "cuda/std/complex", "cmath", "math.h", "cuda_fp16.h", "climits"}) {
        CompileOptions o;
        o.std = "c++17";
        const auto r = compileSource(std::string("#include <") + header + ">\n" + kernel, o);
        EXPECT_TRUE(r.ok) << header << ": " << describe(r);
        EXPECT_TRUE(r.diagnostics.empty()) << header << ": " << describe(r);
    }
}
