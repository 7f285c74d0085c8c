// Whole .cu files as people find them: host classes and helpers removed by NVRTC's own
// verdict (never a device line), host headers found nowhere, kernels in an included .cu.
#include "compile/NvrtcHostRemoval.hpp"
#include "gpu/ChildProcess.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using kwtest::runKwb;
using nlohmann::json;

namespace {

fs::path folder(const std::string& name) { return kw::test::freshDir("kw_test_whole_files", name); }

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

json compileJson(const fs::path& doc, int expectedExit)
{
    auto r = runKwb({"compile", doc.string(), "--json"});
    EXPECT_EQ(r.exitCode, expectedExit) << r.out << r.err;
    return r.out.empty() ? json() : json::parse(r.out);
}

bool hasDiagnostic(const json& j, const std::string& severity, int line, const std::string& text)
{
    for (const auto& d : j["diagnostics"])
        if (d["severity"] == severity && (line == 0 || d["line"] == line)
            && d["message"].get<std::string>().find(text) != std::string::npos)
            return true;
    return false;
}

// `j`'s diagnostics hold a note at `line` that contains `text`.
::testing::AssertionResult hasNote(const json& j, int line, const std::string& text)
{
    if (hasDiagnostic(j, "note", line, text))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "no note at line " << line << " with \"" << text << "\" in "
                                         << j["diagnostics"].dump(1);
}

// The document runs on the simulator and its checks pass.
void expectChecksPass(const fs::path& doc)
{
    auto r = runKwb({"run", doc.string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("passed"), std::string::npos) << r.out;
}

// A scale kernel document over `file` (in `dir`), checked against p_in * 2.
fs::path scaleDocument(const fs::path& dir, const std::string& file)
{
    const json doc = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source_file", file},
        {"kernel", "scale"},
        {"variables", json::array({json::array({"n", "1024"})})},
        {"buffers",
         {{{"name", "p"}, {"dtype", "f32"}, {"count", "n"}, {"init", {{"kind", "arange"}}}, {"direction", "inout"}}}},
        {"args",
         {{{"name", "p"}, {"buffer", "p"}},
          {{"name", "f"}, {"type", "f32"}, {"value", "2"}},
          {{"name", "n"}, {"type", "i32"}, {"value", "n"}}}},
        {"launch", {{"grid", {"cdiv(n, 256)", 1, 1}}, {"block", {256, 1, 1}}}},
        {"checks", {{{"buffer", "p"}, {"expect", "p_in * 2"}}}}};
    const fs::path p = dir / "doc.kwb";
    write(p, doc.dump(2));
    return p;
}

const char* const kScale = "__global__ void scale(float* p, float f, int n)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < n) p[i] *= f;\n"
                           "}\n";

} // namespace

TEST(WholeFiles, AHostClassGoesByNvrtcsVerdictAndTheKernelRuns)
{
    const fs::path dir = folder("host-class");
    write(dir / "main.cu",
          std::string(kScale)
              + "struct Timer {\n"
                "    cudaEvent_t a, b;\n"
                "    Timer() : a(nullptr), b{nullptr} { cudaEventCreate(&a); }\n"
                "    float ms() { float t = 0; cudaEventElapsedTime(&t, a, b); return t; }\n"
                "};\n"
                "int main() { Timer t; return int(t.ms()); }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 8, "function Timer (lines 8-8) is host code"));
    EXPECT_TRUE(hasNote(j, 9, "function ms (lines 9-9) is host code"));
    expectChecksPass(doc);
}

// Only the declarations NVRTC names go, each whole, with every line kept; the device
// functions around them are not touched, whatever the diagnostics say of other lines.
TEST(WholeFiles, OnlyWhatNvrtcCallsHostIsBlanked)
{
    const std::string source = "__device__ float twice(float v) { return 2 * v; }\n"    // 1
                               "template <typename T>\n"                                // 2
                               "T hostMax(T a, T b)\n"                                  // 3
                               "{\n"                                                    // 4
                               "    return a > b ? a : b;\n"                            // 5
                               "}\n"                                                    // 6
                               "static const char* names[] = {\"a\", \"b\"};\n"         // 7
                               "__global__ void k(float* p) { p[0] = twice(p[0]); }\n"; // 8
    std::string text = source;
    std::vector<kw::HostCodeRange> removed;
    const std::vector<kw::Diagnostic> said
        = {{"k.cu",
            3,
            3,
            kw::Severity::Error,
            "A function without execution space annotations (__host__/__device__/__global__) "
            "is considered a host function, and host functions are not allowed in JIT mode.",
            {},
            {}},
           {"k.cu",
            7,
            20,
            kw::Severity::Error,
            "A namespace scope variable without memory space annotations is considered a "
            "host variable, and host variables are not allowed in JIT mode.",
            {},
            {}},
           {"k.cu", 8, 1, kw::Severity::Error, "identifier \"x\" is undefined", {}, {}},
           {"other.cuh", 1, 1, kw::Severity::Error, "host functions are not allowed in JIT mode", {}, {}}};
    ASSERT_TRUE(kw::NvrtcHostRemoval::apply(text, "k.cu", said, removed));
    ASSERT_EQ(text.size(), source.size());
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 8);
    const auto line = [](const std::string& s, int n) {
        std::size_t b = 0;
        for (int i = 1; i < n; ++i)
            b = s.find('\n', b) + 1;
        return s.substr(b, s.find('\n', b) - b);
    };
    EXPECT_EQ(line(text, 1), line(source, 1));
    EXPECT_EQ(line(text, 8), line(source, 8));
    for (int n = 2; n <= 7; ++n)
        EXPECT_EQ(line(text, n).find_first_not_of(' '), std::string::npos) << n << ": " << line(text, n);
    ASSERT_EQ(removed.size(), 2u);
    EXPECT_EQ(removed[0].what, "function hostMax");
    EXPECT_EQ(removed[0].firstLine, 2);
    EXPECT_EQ(removed[0].lastLine, 6);
    EXPECT_EQ(removed[1].what, "variable names");
    EXPECT_EQ(removed[1].firstLine, 7);

    std::string untouched = source;
    EXPECT_FALSE(kw::NvrtcHostRemoval::apply(untouched, "k.cu", {said[2], said[3]}, removed));
    EXPECT_EQ(untouched, source);
}

TEST(WholeFiles, AHostHeaderFoundNowhereIsAStandInWithANoteAtItsLine)
{
    const fs::path dir = folder("host-header");
    write(dir / "main.cu",
          "#include <getopt.h>\n#include <sys/stat.h>\n" + std::string(kScale)
              + "int main(int argc, char** argv) { return getopt(argc, argv, \"v\"); }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 1, "<getopt.h> is not a header device code can use"));
    EXPECT_TRUE(hasNote(j, 2, "<sys/stat.h>"));
    auto r = runKwb({"run", doc.string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;

    // Device code that does use it fails at its own line, beside the note.
    write(dir / "main.cu", "#include <getopt.h>\n__global__ void scale(float* p, float f, int n) { p[0] = optind; }\n");
    const json used = compileJson(doc, 1);
    EXPECT_TRUE(hasDiagnostic(used, "error", 2, "optind")) << used["diagnostics"].dump(1);
    EXPECT_TRUE(hasNote(used, 1, "<getopt.h>"));

    // The document's own header, quoted, stays an error when it is missing.
    write(dir / "main.cu", "#include \"common.h\"\n" + std::string(kScale));
    const json own = compileJson(doc, 1);
    EXPECT_TRUE(hasDiagnostic(own, "error", 1, "common.h")) << own["diagnostics"].dump(1);
}

TEST(WholeFiles, AKernelInAnIncludedCuIsFoundAndSaysWhereItLives)
{
    const fs::path dir = folder("included-kernel");
    write(dir / "kernel.cu", std::string("// the kernel\n") + kScale);
    write(dir / "main.cu", "#include \"kernel.cu\"\nint main() { return 0; }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    ASSERT_EQ(j["kernels"].size(), 1u) << j.dump(1);
    EXPECT_EQ(j["kernels"][0]["name"], "scale");
    EXPECT_EQ(j["kernels"][0]["file"], "kernel.cu");
    EXPECT_EQ(j["kernels"][0]["line"], 2);
    auto text = runKwb({"compile", doc.string()});
    EXPECT_NE(text.out.find("kernel scale(float * p, float f, int n)  in kernel.cu:2"), std::string::npos) << text.out;
    expectChecksPass(doc);
}

// A project's common.h mixing device helpers with host launchers and host library
// headers: split like the source, trusted or not, with the notes in the header.
TEST(WholeFiles, TheDocumentsOwnHeadersAreSplitLikeItsSource)
{
    const fs::path dir = folder("common-header");
    write(dir / "common.h",
          "#include <cublas_v2.h>\n"                                 // 1
          "__device__ float twice(float v) { return 2 * v; }\n"      // 2
          "struct Stopwatch {\n"                                     // 3
          "    double start = 0;\n"                                  // 4
          "    double seconds() const { return clock() - start; }\n" // 5
          "};\n"                                                     // 6
          "void launchScale(float* p, int n);\n"                     // 7
          "inline void check(int r) { if (r) exit(1); }\n");         // 8
    write(dir / "main.cu",
          "#include \"common.h\"\n"
          "__global__ void scale(float* p, float f, int n)\n"
          "{\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) p[i] = twice(p[i]) * f / 2;\n"
          "}\n"
          "int main() { check(0); return 0; }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    for (const bool trusted : {false, true}) {
        std::vector<std::string> args = {"compile", doc.string(), "--json"};
        if (trusted)
            args.push_back("--trust");
        auto c = runKwb(args);
        ASSERT_EQ(c.exitCode, 0) << c.out << c.err;
        const json j = json::parse(c.out);
        EXPECT_TRUE(hasDiagnostic(j, "note", 1, "#include cublas_v2.h")) << trusted << j["diagnostics"].dump(1);
        EXPECT_TRUE(hasNote(j, 8, "function check (lines 8-8) is host code"));
        EXPECT_TRUE(hasNote(j, 5, "function seconds (lines 5-5) is host code"));
        for (const auto& d : j["diagnostics"])
            if (d["severity"] == "note" && d["line"] == 8)
                EXPECT_EQ(fs::path(d["file"].get<std::string>()).filename(), "common.h") << d.dump();
        args[0] = "run";
        args[2] = "--device";
        args.insert(args.begin() + 3, "sim");
        auto r = runKwb(args);
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("passed"), std::string::npos) << r.out;
    }
}

// A file saved with CR LF line ends splices a macro's lines as the compiler does: the
// macro stays whole and device code that uses it computes what it says.
TEST(WholeFiles, AMacroSplicedOverCrLfLinesStaysWholeInAWindowsFile)
{
    const fs::path dir = folder("crlf");
    std::string source = "#include <cstdio>\n"
                         "#define SCALE_BY(p, i, f) \\\n"
                         "    do { \\\n"
                         "        (p)[i] *= (f); \\\n"
                         "    } while (0)\n"
                         "__global__ void scale(float* p, float f, int n)\n"
                         "{\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i < n) SCALE_BY(p, i, f);\n"
                         "}\n"
                         "static void report(const char* what) { printf(\"%s\\n\", what); }\n"
                         "int main() { report(\"done\"); return 0; }\n";
    std::string crlf;
    for (char c : source)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    write(dir / "main.cu", crlf);
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    for (const auto& d : j["diagnostics"])
        EXPECT_FALSE(d["line"].get<int>() >= 2 && d["line"].get<int>() <= 10)
            << d.dump(); // nothing of the macro or kernel
    ASSERT_EQ(j["host_code"].size(), 2u) << j["host_code"].dump();
    EXPECT_EQ(j["host_code"][0]["first_line"], 11);
    EXPECT_EQ(j["host_code"][1]["first_line"], 12);
    expectChecksPass(doc);
}

// A #define or #undef inside host code applies to the code after it, as it does under
// nvcc: leaving main out keeps its directives.
TEST(WholeFiles, DirectivesInsideALeftOutHostFunctionStillApply)
{
    const fs::path dir = folder("directives-in-main");
    write(dir / "main.cu",
          "#define FACTOR 2\n"                                // 1
          "int main()\n"                                      // 2
          "{\n"                                               // 3
          "#undef FACTOR\n"                                   // 4
          "#define FACTOR 3\n"                                // 5
          "#include <vector>\n"                               // 6
          "    std::vector<int> v(4);\n"                      // 7
          "    return 0;\n"                                   // 8
          "}\n"                                               // 9
          "__global__ void scale(float* p, float f, int n)\n" // 10
          "{\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) p[i] *= f * FACTOR / 3;\n"
          "}\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    ASSERT_EQ(j["host_code"].size(), 1u) << j["host_code"].dump();
    EXPECT_EQ(j["host_code"][0]["what"], "function main");
    auto r = runKwb({"run", doc.string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err; // p * 2 * 3 / 3: FACTOR is main's 3
    EXPECT_NE(r.out.find("passed"), std::string::npos) << r.out;
}

// <cublas_v2.h> brings cuda_fp16.h and cuda_bf16.h under nvcc; a kernel that uses
// __nv_bfloat16 after including only cuBLAS compiles here too, and the note says so.
TEST(WholeFiles, ACudaLibraryHostHeaderLeavesItsDeviceTypes)
{
    const fs::path dir = folder("cublas-bf16");
    write(dir / "main.cu",
          "#include <cublas_v2.h>\n"
          "__global__ void scale(float* p, float f, int n)\n"
          "{\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    __nv_bfloat16 h = __float2bfloat16(f);\n"
          "    cuComplex c = make_cuComplex(__bfloat162float(h), 0.f);\n"
          "    if (i < n) p[i] *= cuCrealf(c);\n"
          "}\n"
          "int main() { cublasHandle_t h; cublasCreate(&h); return 0; }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasDiagnostic(j, "note", 1,
                              "#include cublas_v2.h (its device part, cuComplex.h, cuda_fp16.h and "
                              "cuda_bf16.h, is compiled)"))
        << j["diagnostics"].dump(1);
    expectChecksPass(doc);
}

// <cuda.h> includes <stdint.h> under nvcc: cuda-samples' immaTensorCoreGemm takes
// uint8_t matrices after including only it (and <stdio.h>, <mma.h>).
TEST(WholeFiles, TheDriverApiHeaderLeavesTheFixedWidthTypes)
{
    const fs::path dir = folder("cuda-h-stdint");
    write(dir / "main.cu",
          "#include <cuda.h>\n"
          "#include <stdio.h>\n"
          "__global__ void scale(float* p, float f, int n)\n"
          "{\n"
          "    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    uint8_t one = 1; int64_t wide = 1;\n"
          "    if (i < uint32_t(n)) p[i] *= f * one * wide;\n"
          "}\n"
          "int main() { CUdevice d; cuDeviceGet(&d, 0); printf(\"%d\\n\", (int)d); return 0; }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(
        hasDiagnostic(j, "note", 1, "#include cuda.h (its device part, stdint.h's fixed-width types, is compiled)"))
        << j["diagnostics"].dump(1);
    expectChecksPass(doc);
}

// glibc's uint, which nvcc's implicit headers bring, as a type in device code and as a
// parameter the document binds by name.
TEST(WholeFiles, UintIsATypeAsUnderNvccOnLinux)
{
    const fs::path dir = folder("uint");
    write(dir / "main.cu",
          "__global__ void scale(float* p, float f, uint n)\n"
          "{\n"
          "    uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    ushort s = 1; ulong l = 1;\n"
          "    if (i < n) p[i] *= f * s * l;\n"
          "}\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    std::ifstream in(doc);
    json d = json::parse(in);
    d["args"] = "auto";
    d["variables"] = json::array({json::array({"n", "1024"}), json::array({"f", "2"})});
    write(doc, d.dump(1));
    auto r = runKwb({"run", doc.string(), "--device", "sim"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("passed"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("size"), std::string::npos) << r.err; // no "size of uint unknown" warning
}

// A host declaration that names a type only host headers declare (pthread_t, FILE) is
// left out by NVRTC's own verdict ("identifier ... is undefined"), with a note that says
// why; device code that uses it still fails at its own line.
TEST(WholeFiles, AHostDeclarationNamingAHostOnlyTypeIsLeftOutWithTheReason)
{
    const fs::path dir = folder("host-types");
    write(dir / "common.h",
          "#include <pthread.h>\n"                                // 1
          "#include <stdio.h>\n"                                  // 2
          "typedef pthread_t Thread;\n"                           // 3
          "struct Log {\n"                                        // 4
          "    FILE* file;\n"                                     // 5
          "};\n"                                                  // 6
          "static Thread start(void* (*f)(void*), void* arg);\n"  // 7
          "__device__ float twice(float v) { return 2 * v; }\n"); // 8
    write(dir / "main.cu",
          "#include \"common.h\"\n"
          "__global__ void scale(float* p, float f, int n)\n"
          "{\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) p[i] = twice(p[i]) * f / 2;\n"
          "}\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 3, "typedef Thread (it names pthread_t, which device code does not have)"));
    EXPECT_TRUE(hasDiagnostic(j, "note", 4, "struct Log (it names FILE")) << j["diagnostics"].dump(1);
    EXPECT_TRUE(hasNote(j, 7, "is host code"));
    expectChecksPass(doc);

    // A device function that uses the type is device code: its error stays, at its line.
    write(dir / "main.cu",
          "#include \"common.h\"\n"
          "__device__ Thread self() { return 0; }\n"
              + std::string(kScale));
    const json used = compileJson(doc, 1);
    EXPECT_TRUE(hasDiagnostic(used, "error", 2, "Thread")) << used["diagnostics"].dump(1);
}

// `using std::cout;` beside a left-out <iostream>: NVRTC says std has no such member, so
// the using-declaration is host code too, left out with the reason; a device function
// that uses a host library name keeps its error at its line.
TEST(WholeFiles, AUsingDeclarationOfAHostLibraryNameIsLeftOutWithTheReason)
{
    const fs::path dir = folder("using-std");
    const std::string head = "#include <iostream>\n"                 // 1
                             "#include <vector>\n"                   // 2
                             "using std::cout;\n"                    // 3
                             "using std::vector;\n"                  // 4
                             "typedef std::vector<float> Floats;\n"; // 5
    write(dir / "main.cu",
          head + kScale
              + "int main()\n"
                "{\n"
                "    vector<int> h(4, 1);\n"
                "    cout << h[0] << \"\\n\";\n"
                "}\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 3, "using std::cout (it names std::cout, which device code does not have)"));
    EXPECT_TRUE(hasNote(j, 4, "using std::vector"));
    EXPECT_TRUE(hasNote(j, 5, "typedef Floats (it names std::vector"));
    expectChecksPass(doc);

    write(dir / "main.cu", head + "__device__ int first(const std::vector<int>& v) { return v[0]; }\n" + kScale);
    const json used = compileJson(doc, 1);
    EXPECT_TRUE(hasDiagnostic(used, "error", 6, "qualified name is not allowed")) << used["diagnostics"].dump(1);
    EXPECT_FALSE(hasDiagnostic(used, "note", 6, "host code")) << used["diagnostics"].dump(1);
}

// A host template's explicit instantiations and specialisations (cuda-samples' reduction
// instantiates its host wrapper for int, float, double) go with the template.
TEST(WholeFiles, AnExplicitInstantiationOfALeftOutHostTemplateGoesWithIt)
{
    const fs::path dir = folder("host-template-instances");
    write(dir / "main.cu",
          std::string(kScale) +                                        // 1-5
              "template <class T> void launch(T* p, int n)\n"          // 6
              "{\n"                                                    // 7
              "    scale<<<(n + 255) / 256, 256>>>(p, 2.0f, n);\n"     // 8
              "}\n"                                                    // 9
              "template void launch<float>(float* p, int n);\n"        // 10
              "template <>\n"                                          // 11
              "void launch<int>(int* p, int n) { }\n"                  // 12
              "extern template void launch<double>(double*, int);\n"); // 13
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 10, "explicit instantiation of launch (its template is host code)"));
    EXPECT_TRUE(hasNote(j, 11, "explicit specialisation of launch"));
    EXPECT_TRUE(hasNote(j, 13, "explicit instantiation of launch"));
    expectChecksPass(doc);
}

// A kernel whose own declaration does not compile: its errors, not NVRTC's complaint
// about the workbench's name expression in a file the user does not have.
TEST(WholeFiles, AKernelWhoseDeclarationFailsShowsItsOwnErrorsOnly)
{
    const fs::path dir = folder("declaration-fails");
    write(dir / "main.cu",
          "__global__ void scale(real* p, float f, int n)\n"
          "{\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) p[i] *= f;\n"
          "}\n");
    const json j = compileJson(scaleDocument(dir, "main.cu"), 1);
    EXPECT_TRUE(hasDiagnostic(j, "error", 1, "identifier \"real\" is undefined")) << j["diagnostics"].dump(1);
    for (const auto& d : j["diagnostics"]) {
        EXPECT_NE(d["file"], "__nv_name_map") << d.dump();
        EXPECT_EQ(d["message"].get<std::string>().find("name expression"), std::string::npos) << d.dump();
    }
}

// A path into a project's own copy of a library (a git submodule left empty) is not the
// toolkit's: with a whole toolkit here, no note tells the user to install it.
TEST(WholeFiles, AMissingHeaderTheToolkitDoesNotHaveGetsNoInstallNote)
{
    const fs::path dir = folder("submodule-path");
    write(dir / "main.cu", "#include <cub/cub/cub.cuh>\n" + std::string(kScale));
    const json j = compileJson(scaleDocument(dir, "main.cu"), 1);
    bool found = false;
    for (const auto& d : j["diagnostics"]) {
        if (d["message"].get<std::string>().find("cub/cub/cub.cuh") == std::string::npos)
            continue;
        found = true;
        EXPECT_EQ(d["line"], 1) << d.dump();
        EXPECT_TRUE(d["notes"].empty()) << d.dump();
    }
    EXPECT_TRUE(found) << j["diagnostics"].dump(1);
}

// NVRTC reads a function whose parameter types it does not know (a framework's, whose
// header is left out) as a variable with an initialiser. Its body goes with it; a kernel
// it reads so (its parameter type undefined) stays, with its error.
TEST(WholeFiles, AFunctionNvrtcReadsAsAVariableGoesWithItsBody)
{
    const std::string source = "void bind(\n"                                   // 1
                               "    torch::Tensor a) {\n"                       // 2
                               "    check(a);\n"                                // 3
                               "}\n"                                            // 4
                               "__global__ void k(uint32_t* p) { p[0] = 1; }\n" // 5
                               "auto twice = [](int v) { return 2 * v; };\n";   // 6
    const auto variableAt = [](int line, int column) {
        return kw::Diagnostic{"k.cu",
                              line,
                              column,
                              kw::Severity::Error,
                              "A namespace scope variable without memory space annotations is considered a host "
                              "variable, and host variables are not allowed in JIT mode.",
                              {},
                              {}};
    };
    std::string text = source;
    std::vector<kw::HostCodeRange> removed;
    ASSERT_TRUE(
        kw::NvrtcHostRemoval::apply(text, "k.cu", {variableAt(1, 6), variableAt(5, 17), variableAt(6, 6)}, removed));
    ASSERT_EQ(removed.size(), 2u);
    EXPECT_EQ(removed[0].what, "function bind");
    EXPECT_EQ(removed[0].firstLine, 1);
    EXPECT_EQ(removed[0].lastLine, 4);
    EXPECT_EQ(removed[1].what, "variable twice"); // a lambda's body is its initialiser's
    EXPECT_EQ(removed[1].lastLine, 6);
    EXPECT_EQ(text.substr(0, text.find('\n', text.find("__global__"))).substr(text.find("__global__")),
              "__global__ void k(uint32_t* p) { p[0] = 1; }");
}

// A template with default arguments, then host functions of a framework whose header is
// found nowhere: the functions are host code, the kernel runs.
TEST(WholeFiles, AHostFunctionAfterATemplateWithDefaultArgumentsIsLeftOut)
{
    const fs::path dir = folder("template-defaults");
    write(dir / "main.cu",
          "#include <torch/extension.h>\n"                             // 1
          "template <int TWICE = 2, bool CHECKED = true>\n"            // 2
          "__device__ __forceinline__\n"                               // 3
          "float times(float v) { return CHECKED ? TWICE * v : v; }\n" // 4
          "__global__ void scale(float* p, float f, int n)\n"          // 5
          "{\n"                                                        // 6
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"       // 7
          "    if (i < n) p[i] = times<>(p[i]) * (f / 2);\n"           // 8
          "}\n"                                                        // 9
          "void run(\n"                                                // 10
          "    torch::Tensor a) {\n"                                   // 11
          "    scale<<<1, 256>>>(a.data_ptr<float>(), 2.0f, 1);\n"     // 12
          "}\n");                                                      // 13
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 10, "function run (lines 10-13) is host code"));
    expectChecksPass(doc);
}

// uint32_t in a kernel of a file that includes <iostream> compiles under nvcc (GCC's
// <iostream> brings <cstdint>); here <stdint.h> takes the left-out header's line, with a
// note. Without a host header left out the error stays, as under nvcc.
TEST(WholeFiles, FixedWidthTypesALeftOutHostHeaderBroughtComeBackWithANote)
{
    const fs::path dir = folder("stdint-in-place");
    const std::string kernel = "__global__ void scale(float* p, float f, int n)\n"
                               "{\n"
                               "    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < uint32_t(n) && i < UINT32_MAX) p[i] *= f;\n"
                               "}\n";
    write(dir / "main.cu",
          "#include <stdio.h>\n#include <iostream>\n" + kernel + "int main() { std::cout << 1; return 0; }\n");
    const fs::path doc = scaleDocument(dir, "main.cu");
    const json j = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(j, 2, "device code uses uint32_t, which no header it can see declares"));
    EXPECT_TRUE(hasNote(j, 2, "<stdint.h> is compiled in this line's place"));
    expectChecksPass(doc);

    // A host header whose device part is compiled in its place keeps it.
    write(dir / "main.cu",
          "#include <cublas_v2.h>\n#include <iostream>\n"
          "__device__ cuFloatComplex twice(cuFloatComplex z) { return cuCaddf(z, z); }\n"
              + kernel);
    const json withPart = compileJson(doc, 0);
    EXPECT_TRUE(hasNote(withPart, 2, "<stdint.h> is compiled in this line's place"));
    EXPECT_FALSE(hasNote(withPart, 1, "<stdint.h> is compiled"));

    write(dir / "main.cu", "#include <cuda_fp16.h>\n" + kernel);
    const json plain = compileJson(doc, 1);
    EXPECT_TRUE(hasDiagnostic(plain, "error", 4, "identifier \"uint32_t\" is undefined"))
        << plain["diagnostics"].dump(1);
    EXPECT_FALSE(hasDiagnostic(plain, "note", 0, "<stdint.h> is compiled")) << plain["diagnostics"].dump(1);
}
