#include "compile/Compiler.hpp"
#include "compile/SignatureCheck.hpp"
#include "compile/SignatureParser.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

const KernelSignature* find(const std::vector<KernelSignature>& ks, const std::string& name)
{
    for (const auto& k : ks)
        if (k.name == name)
            return &k;
    return nullptr;
}

} // namespace

TEST(Signatures, PlainKernel)
{
    auto ks = parseKernelSignatures("__global__ void add(float* a, const float* b, int n) {}\n");
    ASSERT_EQ(ks.size(), 1u);
    const auto& k = ks[0];
    EXPECT_EQ(k.name, "add");
    EXPECT_EQ(k.line, 1);
    EXPECT_TRUE(k.templateParams.empty());
    ASSERT_EQ(k.params.size(), 3u);
    EXPECT_EQ(k.params[0].name, "a");
    EXPECT_EQ(k.params[0].type, "float *");
    EXPECT_EQ(k.params[0].baseType, "float");
    EXPECT_TRUE(k.params[0].isPointer);
    EXPECT_FALSE(k.params[0].isConst);
    EXPECT_EQ(k.params[1].type, "const float *");
    EXPECT_TRUE(k.params[1].isConst);
    EXPECT_EQ(k.params[2].name, "n");
    EXPECT_EQ(k.params[2].baseType, "int");
    EXPECT_FALSE(k.params[2].isPointer);
}

TEST(Signatures, RestrictConstPointerAndPointerToPointer)
{
    auto ks = parseKernelSignatures(R"(
__global__ void k(const float* __restrict__ a, float* const p, float** pp,
                  const unsigned int * const * table, unsigned n, volatile int* flag) { }
)");
    ASSERT_EQ(ks.size(), 1u);
    const auto& ps = ks[0].params;
    ASSERT_EQ(ps.size(), 6u);
    EXPECT_EQ(ps[0].name, "a");
    EXPECT_TRUE(ps[0].isRestrict);
    EXPECT_TRUE(ps[0].isConst);
    EXPECT_EQ(ps[0].baseType, "float");
    EXPECT_EQ(ps[0].type, "const float * __restrict__");

    EXPECT_EQ(ps[1].name, "p");
    EXPECT_FALSE(ps[1].isConst) << "the pointer is const, not the pointee";
    EXPECT_TRUE(ps[1].isPointer);
    EXPECT_EQ(ps[1].type, "float * const");

    EXPECT_EQ(ps[2].name, "pp");
    EXPECT_EQ(ps[2].pointerDepth, 2);
    EXPECT_EQ(ps[2].baseType, "float");
    EXPECT_EQ(ps[2].type, "float **");

    EXPECT_EQ(ps[3].baseType, "unsigned int");
    EXPECT_TRUE(ps[3].isConst);
    EXPECT_EQ(ps[3].pointerDepth, 2);

    EXPECT_EQ(ps[4].baseType, "unsigned int");
    EXPECT_EQ(ps[4].name, "n");
    EXPECT_EQ(ps[5].baseType, "int");
    EXPECT_FALSE(ps[5].isConst);
}

TEST(Signatures, TemplatesExternCLaunchBoundsStatic)
{
    auto ks = parseKernelSignatures(R"(
#include <cstdio>
#define BLOCK 256
template <typename T, int N = 128>
__global__ void __launch_bounds__(N) scale(const T* in, T* out, T factor) {}

extern "C" __global__ void __launch_bounds__(256, 2) plain(int* x) {}
extern "C" {
__global__ void inBlock(double d) {}
}
static __global__ void hidden(char c) {}
__global__ __launch_bounds__(128) void after(short s) {}
template <class U> __device__ U helper(U u) { return u; }
__device__ void notAKernel(int* p) {}
)");
    ASSERT_EQ(ks.size(), 5u);
    const auto* scale = find(ks, "scale");
    ASSERT_NE(scale, nullptr);
    EXPECT_EQ(scale->templateParams, (std::vector<std::string>{"typename T", "int N = 128"}));
    ASSERT_EQ(scale->params.size(), 3u);
    EXPECT_EQ(scale->params[0].baseType, "T");
    EXPECT_EQ(scale->params[0].type, "const T *");
    EXPECT_TRUE(scale->params[0].isConst);
    EXPECT_EQ(scale->params[2].baseType, "T");
    EXPECT_EQ(scale->line, 5);

    ASSERT_NE(find(ks, "plain"), nullptr);
    EXPECT_TRUE(find(ks, "plain")->templateParams.empty());
    ASSERT_NE(find(ks, "inBlock"), nullptr);
    EXPECT_EQ(find(ks, "inBlock")->params[0].baseType, "double");
    ASSERT_NE(find(ks, "hidden"), nullptr);
    ASSERT_NE(find(ks, "after"), nullptr);
    EXPECT_EQ(find(ks, "helper"), nullptr);
    EXPECT_EQ(find(ks, "notAKernel"), nullptr);
}

TEST(Signatures, CommentsStringsAndPreprocessorAreSkipped)
{
    auto ks = parseKernelSignatures(R"(
// __global__ void commented(int x) {}
/* __global__ void blockComment(int x) {}
   still a comment */
#define KERNEL __global__ void fromMacro(int x)
#define PATTERN "/*" // a comment opener inside a string is not a comment
#define LONG_MACRO(a) \
    __global__ void continued(a)
#if 0
#endif
const char* s = "__global__ void inString(int x) {}";
__global__ void real(int /* the count */ n, // trailing
                     float* data /* output */) { printf("__global__ void no(){}"); }
)");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].name, "real");
    EXPECT_EQ(ks[0].line, 12);
    ASSERT_EQ(ks[0].params.size(), 2u);
    EXPECT_EQ(ks[0].params[0].name, "n");
    EXPECT_EQ(ks[0].params[1].name, "data");
}

TEST(Signatures, MultiLineAndUnnamedParams)
{
    auto ks = parseKernelSignatures(
        "__global__\nvoid\nk(\n  float*,\n  int,\n  unsigned int,\n  const float* const,\n  void*\n)\n{\n}\n");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].line, 3);
    const auto& ps = ks[0].params;
    ASSERT_EQ(ps.size(), 5u);
    for (const auto& p : ps)
        EXPECT_TRUE(p.name.empty()) << p.type;
    EXPECT_EQ(ps[0].type, "float *");
    EXPECT_EQ(ps[1].baseType, "int");
    EXPECT_EQ(ps[2].baseType, "unsigned int");
    EXPECT_TRUE(ps[3].isConst);
    EXPECT_EQ(ps[4].baseType, "void");
    EXPECT_TRUE(ps[4].isPointer);
}

TEST(Signatures, VoidParamsStructsNamespacesAndDeclarations)
{
    auto ks = parseKernelSignatures(R"(
struct Params { float a; int b; };
__global__ void fwd(float* out, int n);
namespace ns { namespace inner {
__global__ void nested(Params p, struct Params q) {}
} }
__global__ void empty(void) {}
__global__ void fwd(float* out, int n) { out[0] = n; }
__global__ void withArray(float a[16], int n = 3) {}
__global__ void tmplArg(Vec<float, 4> v, const ns::Thing* t) {}
)");
    ASSERT_EQ(ks.size(), 5u);
    const auto* fwd = find(ks, "fwd");
    ASSERT_NE(fwd, nullptr);
    EXPECT_EQ(fwd->line, 8) << "the definition wins over the declaration";
    const auto* nested = find(ks, "ns::inner::nested");
    ASSERT_NE(nested, nullptr);
    EXPECT_EQ(nested->params[0].baseType, "Params");
    EXPECT_EQ(nested->params[1].baseType, "Params");
    EXPECT_EQ(nested->params[1].name, "q");
    ASSERT_NE(find(ks, "empty"), nullptr);
    EXPECT_TRUE(find(ks, "empty")->params.empty());
    const auto* arr = find(ks, "withArray");
    ASSERT_NE(arr, nullptr);
    EXPECT_TRUE(arr->params[0].isPointer);
    EXPECT_EQ(arr->params[0].name, "a");
    EXPECT_EQ(arr->params[1].name, "n");
    const auto* ta = find(ks, "tmplArg");
    ASSERT_NE(ta, nullptr);
    ASSERT_EQ(ta->params.size(), 2u);
    EXPECT_EQ(ta->params[0].baseType, "Vec<float, 4>");
    EXPECT_EQ(ta->params[0].name, "v");
    EXPECT_EQ(ta->params[1].baseType, "ns::Thing");
    EXPECT_TRUE(ta->params[1].isConst);
}

TEST(Signatures, ExplicitInstantiationIsNotANewKernel)
{
    auto ks = parseKernelSignatures(R"(
template <typename T> __global__ void k(T* x) {}
template __global__ void k<float>(float*);
template <> __global__ void k<int>(int* x) {}
)");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].templateParams.size(), 1u);
}

TEST(Signatures, InstantiateSubstitutesTemplateArguments)
{
    auto ks
        = parseKernelSignatures("template <typename T, int N = 64, typename Acc = double>\n"
                                "__global__ void scale(const T* __restrict__ in, T* out, T f, Acc* acc, int n) {}\n");
    ASSERT_EQ(ks.size(), 1u);
    auto k = instantiate(ks[0], "scale<float,128>");
    EXPECT_EQ(k.name, "scale<float,128>");
    EXPECT_TRUE(k.templateParams.empty());
    ASSERT_EQ(k.params.size(), 5u);
    EXPECT_EQ(k.params[0].baseType, "float");
    EXPECT_EQ(k.params[0].type, "const float * __restrict__");
    EXPECT_EQ(k.params[0].name, "in");
    EXPECT_TRUE(k.params[0].isRestrict);
    EXPECT_EQ(k.params[1].type, "float *");
    EXPECT_EQ(k.params[2].baseType, "float");
    EXPECT_FALSE(k.params[2].isPointer);
    EXPECT_EQ(k.params[3].baseType, "double") << "default template argument";
    EXPECT_EQ(k.params[4].baseType, "int");

    auto u = instantiate(ks[0], "scale<unsigned int>");
    EXPECT_EQ(u.params[0].baseType, "unsigned int");

    auto p = instantiate(ks[0], "scale<float*, 4>");
    EXPECT_EQ(p.params[1].pointerDepth, 2);
    EXPECT_EQ(p.params[1].baseType, "float");

    EXPECT_THROW(instantiate(ks[0], "other<float>"), Error);
    EXPECT_THROW(instantiate(ks[0], "scale<float,1,double,int>"), Error);
    EXPECT_THROW(instantiate(ks[0], "scale<>"), Error);
}

TEST(Signatures, ParseSingleParam)
{
    auto p = parseKernelParam("const float* __restrict__ a");
    EXPECT_EQ(p.name, "a");
    EXPECT_EQ(p.baseType, "float");
    EXPECT_TRUE(p.isConst && p.isPointer && p.isRestrict);
    auto q = parseKernelParam("const T");
    EXPECT_TRUE(q.name.empty());
    EXPECT_EQ(q.baseType, "T");
    EXPECT_TRUE(q.isConst);
    auto r = parseKernelParam("int const n");
    EXPECT_EQ(r.name, "n");
    EXPECT_TRUE(r.isConst);
    EXPECT_EQ(r.baseType, "int");
}

TEST(Signatures, ConditionalCodeThatIsNeverCompiled)
{
    auto ks = parseKernelSignatures(R"(
#if 0
__global__ void disabled(int x) {}
#if FOO
__global__ void nestedDisabled(int x) {}
#endif
#else
__global__ void enabledElse(int x) {}
#endif
#if 1
__global__ void enabled(int x) {}
#else
__global__ void disabledElse(int x) {}
#endif
#ifdef SOMETHING
__global__ void maybe(int x) {}
#else
__global__ void maybeNot(int x) {}
#endif
)");
    std::vector<std::string> names;
    for (const auto& k : ks)
        names.push_back(k.name);
    EXPECT_EQ(names, (std::vector<std::string>{"enabledElse", "enabled", "maybe", "maybeNot"}));
}

TEST(SignatureCheck, SourceAndPtxAgreeForManyTypes)
{
    Compiler compiler;
    CompileRequest req;
    req.source = "#include <cstdint>\n#include <cuda_fp16.h>\n"
                 "struct Pair { float a; int b; };\n"
                 "__global__ void many(char c, unsigned char uc, short s, unsigned short us, int i,\n"
                 "    unsigned u, float f, long l, unsigned long ul, long long ll, double d, bool b,\n"
                 "    std::uint64_t u64, size_t n, float2 f2, float4 f4, double2 d2, int3 i3, __half h,\n"
                 "    const float* __restrict__ p, float** pp, Pair pair) {}\n"
                 "template <typename T, int N> __global__ void scale(T* x, T f, int n) {}\n";
    req.nameExpressions = {"scale<double,2>", "scale<short,1>"};
    auto r = compiler.compile(req);
    ASSERT_TRUE(r.ok) << r.log;
    auto entryFor = [&](const std::string& expr) -> const PtxEntry& {
        for (const auto& e : r.entries)
            if (e.name == r.loweredNames.at(expr))
                return e;
        throw std::runtime_error("no entry for " + expr);
    };
    const auto& many = r.kernels.at(0);
    ASSERT_EQ(many.name, "many");
    EXPECT_TRUE(crossCheck(many, entryFor("many")).empty());
    for (const auto& p : many.params)
        if (p.baseType != "Pair")
            EXPECT_NE(p.isPointer ? 8u : paramTypeSize(p.baseType), 0u) << p.baseType;
    for (std::string expr : {"scale<double,2>", "scale<short,1>"})
        EXPECT_TRUE(crossCheck(instantiate(r.kernels.at(1), expr), entryFor(expr)).empty()) << expr;

    // The template itself, or a wrong instantiation, does not fit.
    auto wrong = crossCheck(instantiate(r.kernels.at(1), "scale<float,2>"), entryFor("scale<double,2>"));
    ASSERT_EQ(wrong.size(), 1u);
    EXPECT_NE(wrong[0].find("'f'"), std::string::npos) << wrong[0];
    EXPECT_NE(wrong[0].find("4 bytes"), std::string::npos) << wrong[0];
    KernelSignature fewer = many;
    fewer.params.pop_back();
    EXPECT_EQ(crossCheck(fewer, entryFor("many")).size(), 1u);
}

TEST(Signatures, NestedTemplateArgumentsClosedByShiftToken)
{
    auto ks = parseKernelSignatures("template <typename T = Vec<int>>\n"
                                    "__global__ void k(T* x, Vec<Vec<float>> v) {}\n");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].templateParams, (std::vector<std::string>{"typename T = Vec<int>"}));
    ASSERT_EQ(ks[0].params.size(), 2u);
    EXPECT_EQ(ks[0].params[1].baseType, "Vec<Vec<float>>");
    EXPECT_EQ(ks[0].params[1].name, "v");
    auto inst = instantiate(ks[0], "k<Pair<int>>");
    EXPECT_EQ(inst.params[0].baseType, "Pair<int>");
    auto byDefault = instantiate(ks[0], "k");
    EXPECT_EQ(byDefault.params[0].baseType, "Vec<int>");
}
