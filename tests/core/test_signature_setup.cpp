// SignatureSetup: a launch proposed from a kernel's parameters, for the common shapes
// (a line of n elements, a plane of width×height, a matrix product), each guess said
// with what it came from; a signature that gives no sizes is not guessed at.
#include "compile/SignatureParser.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"
#include "doc/SignatureSetup.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kw;

namespace {

KernelSignature kernelOf(const std::string& source)
{
    const auto kernels = parseKernelSignatures(source);
    EXPECT_EQ(kernels.size(), 1u);
    return kernels.empty() ? KernelSignature{} : kernels.front();
}

bool noted(const SetupProposal& p, const std::string& what, const std::string& from)
{
    return std::any_of(p.notes.begin(), p.notes.end(), [&](const SetupNote& n) {
        return n.what.find(what) != std::string::npos && n.from.find(from) != std::string::npos;
    });
}

std::string notes(const SetupProposal& p)
{
    std::string s;
    for (const SetupNote& n : p.notes)
        s += n.what + "  <-  " + n.from + "\n";
    return s;
}

// The proposal taken by a document of `source`: valid as the validator sees it.
Document applied(const std::string& source, const SetupProposal& p)
{
    Document d;
    d.source = source;
    d.kernel = kernelOf(source).name;
    d.trust = Trust::Trusted;
    Document out = SignatureSetup::apply(p, d);
    EXPECT_NO_THROW(DocumentValidator::validate(out));
    return out;
}

} // namespace

TEST(SignatureSetup, AddVectorsIsALineOfNElementsInBlocksOf256)
{
    const std::string src = "__global__ void add_vectors(const float* a, const float* b, float* c, int n) {}";
    const SetupProposal p = SignatureSetup::propose(kernelOf(src), {});
    ASSERT_TRUE(p.understood()) << p.reason;
    EXPECT_EQ(p.shape, SetupProposal::Shape::Line);
    ASSERT_EQ(p.variables.size(), 1u);
    EXPECT_EQ(p.variables[0].first, "n");
    ASSERT_EQ(p.buffers.size(), 3u);
    for (const BufferSpec& b : p.buffers) {
        EXPECT_EQ(b.dtype, DType::F32);
        EXPECT_EQ(b.count, "n");
        EXPECT_TRUE(b.shape.empty());
    }
    EXPECT_EQ(p.buffers[0].direction, Direction::In);
    EXPECT_EQ(p.buffers[1].direction, Direction::In);
    EXPECT_EQ(p.buffers[2].direction, Direction::Out);
    EXPECT_NE(p.buffers[0].init.seed, p.buffers[1].init.seed) << "two inputs, two different random fills";
    ASSERT_EQ(p.args.size(), 4u);
    EXPECT_EQ(p.args[2].buffer, "c");
    EXPECT_EQ(p.args[3].value, "n");
    EXPECT_EQ(p.args[3].type, DType::I32);
    EXPECT_EQ(p.launch.grid, (std::vector<std::string>{"cdiv(n, 256)", "1", "1"}));
    EXPECT_EQ(p.launch.block, (std::vector<std::string>{"256", "1", "1"}));
    // Every guess says where it came from.
    EXPECT_TRUE(noted(p, "buffer a: f32, n elements, in", "const float *a: points to const")) << notes(p);
    EXPECT_TRUE(noted(p, "buffer c: f32, n elements, out", "not const: the kernel writes it")) << notes(p);
    EXPECT_TRUE(noted(p, "n = 4096", "named as a count of elements")) << notes(p);
    EXPECT_TRUE(noted(p, "launch: blocks of 256", "one thread per element")) << notes(p);

    const Document d = applied(src, p);
    EXPECT_EQ(d.variables, (std::vector<std::pair<std::string, std::string>>{{"n", "4096"}}));
    // Through the file and back, as the window saves it.
    EXPECT_EQ(DocumentWriter::toString(DocumentReader::readString(DocumentWriter::toString(d))),
              DocumentWriter::toString(d));
}

TEST(SignatureSetup, WithoutConstTheLastPointerIsTheOutputAndSaysSo)
{
    // The tutorial's add_vectors: no pointer is const.
    const std::string src = "__global__ void add_vectors(float *a, float *b, float *c, int n) {}";
    const SetupProposal p = SignatureSetup::propose(kernelOf(src), {{"n", "400"}});
    ASSERT_TRUE(p.understood()) << p.reason;
    EXPECT_EQ(p.buffers[0].direction, Direction::In);
    EXPECT_EQ(p.buffers[2].direction, Direction::Out);
    EXPECT_TRUE(noted(p, "buffer c", "no pointer is const: the last is taken as the output")) << notes(p);
    EXPECT_TRUE(noted(p, "buffer a", "those before the last are taken as inputs")) << notes(p);
    // The document's n keeps its value.
    EXPECT_EQ(p.variables[0], (std::pair<std::string, std::string>{"n", "400"}));
    EXPECT_TRUE(noted(p, "n = 400", "the document's value")) << notes(p);
}

TEST(SignatureSetup, AnImageIsAPlaneOfWidthByHeightIn16By16Blocks)
{
    const std::string src = "__global__ void blur(const unsigned char* in, unsigned char* out, int width, "
                            "int height) {}";
    const SetupProposal p = SignatureSetup::propose(kernelOf(src), {});
    ASSERT_TRUE(p.understood()) << p.reason;
    EXPECT_EQ(p.shape, SetupProposal::Shape::Grid);
    ASSERT_EQ(p.buffers.size(), 2u);
    EXPECT_EQ(p.buffers[0].dtype, DType::U8);
    EXPECT_EQ(p.buffers[0].count, "height*width");
    EXPECT_EQ(p.buffers[0].shape, (std::vector<std::string>{"height", "width"}));
    EXPECT_EQ(p.buffers[1].direction, Direction::Out);
    EXPECT_EQ(p.launch.grid, (std::vector<std::string>{"cdiv(width, 16)", "cdiv(height, 16)", "1"}));
    EXPECT_EQ(p.launch.block, (std::vector<std::string>{"16", "16", "1"}));
    EXPECT_TRUE(noted(p, "width = 256", "named as the width of a 2-D grid")) << notes(p);
    EXPECT_TRUE(noted(p, "launch: blocks of 16×16", "x along width, y along height")) << notes(p);
    applied(src, p);
}

TEST(SignatureSetup, MatmulIsAMatrixProductOverC)
{
    {
        const std::string src = "__global__ void matmul(const float* A, const float* B, float* C, int M, int N, "
                                "int K) {}";
        const SetupProposal p = SignatureSetup::propose(kernelOf(src), {});
        ASSERT_TRUE(p.understood()) << p.reason;
        EXPECT_EQ(p.shape, SetupProposal::Shape::MatrixProduct);
        EXPECT_EQ(p.buffers[0].shape, (std::vector<std::string>{"M", "K"}));
        EXPECT_EQ(p.buffers[1].shape, (std::vector<std::string>{"K", "N"}));
        EXPECT_EQ(p.buffers[2].shape, (std::vector<std::string>{"M", "N"}));
        EXPECT_EQ(p.buffers[2].count, "M*N");
        EXPECT_EQ(p.launch.grid, (std::vector<std::string>{"cdiv(N, 16)", "cdiv(M, 16)", "1"}));
        EXPECT_TRUE(noted(p, "M = 128", "M, N and K name a matrix product")) << notes(p);
        applied(src, p);
    }
    {
        // Square, one size: read so only because the kernel is named for a matrix product.
        const std::string src = "__global__ void matMul(float* a, float* b, float* c, int N) {}";
        const SetupProposal p = SignatureSetup::propose(kernelOf(src), {});
        ASSERT_TRUE(p.understood()) << p.reason;
        EXPECT_EQ(p.shape, SetupProposal::Shape::MatrixProduct);
        EXPECT_EQ(p.buffers[0].count, "N*N");
        EXPECT_EQ(p.buffers[2].direction, Direction::Out);
        EXPECT_TRUE(noted(p, "N = 128", "with the kernel's name, the one size of a square matrix product")) << notes(p);
        applied(src, p);
    }
}

TEST(SignatureSetup, ASignatureWithoutSizesIsNotGuessedAt)
{
    {
        const SetupProposal p
            = SignatureSetup::propose(kernelOf("__global__ void k(float* data, int stride, int offset) {}"), {});
        EXPECT_FALSE(p.understood());
        EXPECT_NE(p.reason.find("no parameter gives the sizes"), std::string::npos) << p.reason;
        EXPECT_TRUE(p.buffers.empty());
        EXPECT_TRUE(p.args.empty());
    }
    {
        const SetupProposal p = SignatureSetup::propose(kernelOf("__global__ void k(int n, float x) {}"), {});
        EXPECT_FALSE(p.understood());
        EXPECT_NE(p.reason.find("no pointer parameter"), std::string::npos) << p.reason;
    }
    {
        const SetupProposal p = SignatureSetup::propose(kernelOf("__global__ void k(float** rows, int n) {}"), {});
        EXPECT_FALSE(p.understood());
        EXPECT_NE(p.reason.find("pointer to pointers"), std::string::npos) << p.reason;
    }
    {
        // A float named n is no count.
        const SetupProposal p = SignatureSetup::propose(kernelOf("__global__ void k(float* a, float n) {}"), {});
        EXPECT_FALSE(p.understood());
    }
}

TEST(SignatureSetup, AScalarWithoutARuleIsProposedAsOneAndSaid)
{
    const std::string src = "__global__ void saxpy(int n, float alpha, const float* x, float* y) {}";
    const SetupProposal p = SignatureSetup::propose(kernelOf(src), {});
    ASSERT_TRUE(p.understood()) << p.reason;
    ASSERT_EQ(p.args.size(), 4u);
    EXPECT_EQ(p.args[1].value, "1");
    EXPECT_EQ(p.args[1].type, DType::F32);
    EXPECT_TRUE(noted(p, "alpha = 1", "no rule for this name")) << notes(p);
    applied(src, p);
}

TEST(SignatureSetup, AProposalTakenForAStepSetsThatStepsArgumentsAndLaunchOnly)
{
    const std::string src = "__global__ void add_vectors(const float* a, const float* b, float* c, int n) {}";
    const SetupProposal p = SignatureSetup::propose(kernelOf(src), {{"n", "100"}});
    ASSERT_TRUE(p.understood()) << p.reason;
    Document d;
    d.version = 2;
    d.source = src;
    d.kernels = {"add_vectors"};
    d.variables = {{"n", "100"}};
    d.trust = Trust::Trusted;
    StepSpec outer;
    outer.kind = StepSpec::Kind::Repeat;
    outer.times = "2";
    StepSpec launch;
    launch.kind = StepSpec::Kind::Launch;
    launch.kernel = "add_vectors";
    launch.launch.block = {"32", "1", "1"};
    outer.steps = {launch, launch};
    d.steps = {outer};

    const Document out = SignatureSetup::applyToStep(p, d, "1.2");
    const StepSpec& set = out.steps[0].steps[1];
    ASSERT_EQ(set.args.size(), 4u);
    EXPECT_EQ(set.args[2].buffer, "c");
    EXPECT_EQ(set.launch.block[0], "256");
    EXPECT_FALSE(set.argsAuto);
    EXPECT_TRUE(out.steps[0].steps[0].args.empty()) << "step 1.1 is not touched";
    EXPECT_EQ(out.steps[0].steps[0].launch.block[0], "32");
    EXPECT_TRUE(out.args.empty()) << "a document of steps has no single launch to set";
    EXPECT_EQ(out.buffers.size(), 3u);
    EXPECT_EQ(out.variables, d.variables);

    EXPECT_THROW(SignatureSetup::applyToStep(p, d, "1"), Error) << "a repeat is no launch";
    EXPECT_THROW(SignatureSetup::applyToStep(p, d, "4"), Error) << "no such step";
}
