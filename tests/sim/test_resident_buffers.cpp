// Buffers kept between launches on the simulator (launch/ResidentBuffers): several
// kernels of one module launched in turn on the same buffers, the module's variables
// living from one launch to the next, and a fault reported rather than thrown.
#include "SimTestSupport.hpp"

using namespace kwtest;

namespace {

const char* kPipeline = R"(
__device__ int launches;
extern "C" __global__ void fill(int* a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
    if (i == 0) launches += 1;
}
extern "C" __global__ void twice(const int* a, int* b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2 * a[i] + launches;
}
extern "C" __global__ void past(int* a) { a[threadIdx.x + 1000000] = 1; }
)";

kw::KernelImage kernelOf(const kw::KernelImage& module, const std::string& name)
{
    kw::KernelImage k = module;
    k.name = k.loweredName = name;
    return k;
}

std::vector<int> read(kw::ResidentBuffers& r, std::size_t index, std::size_t n)
{
    kw::BufferArg into = buffer("into", std::vector<int>(n, -1));
    r.read(index, into.data);
    return values<int>(into);
}

} // namespace

TEST(ResidentBuffers, KernelsOfOneModuleShareBuffersAndVariablesAcrossLaunches)
{
    KW_REQUIRE_NVRTC();
    const auto module = compile(kPipeline, "fill");
    ASSERT_TRUE(module);
    kw::SimBackend sim;
    std::unique_ptr<kw::ResidentBuffers> r = static_cast<kw::Backend&>(sim).residentBuffers();
    const int n = 300;
    const std::size_t a = r->add(buffer("a", std::vector<int>(n, 0)));
    const std::size_t b = r->add(buffer("b", std::vector<int>(n, 0)));
    ASSERT_EQ(r->size(), 2u);

    for (int pass = 0; pass < 2; ++pass) {
        const kw::LaunchReport f = r->launch(kernelOf(*module, "fill"), {bufArg(a), scalar(n)}, config({3}, {128}));
        ASSERT_TRUE(f.ok) << faultMessage(f.fault);
    }
    const kw::LaunchReport t
        = r->launch(kernelOf(*module, "twice"), {bufArg(a), bufArg(b), scalar(n)}, config({3}, {128}));
    ASSERT_TRUE(t.ok) << faultMessage(t.fault);

    const std::vector<int> got = read(*r, b, n);
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(got[i], 2 * i + 2) << "b[" << i << "]: twice sees fill's a and the 2 launches it counted";
    EXPECT_EQ(read(*r, a, n)[n - 1], n - 1);
}

TEST(ResidentBuffers, AnotherModuleStartsItsVariablesAfresh)
{
    KW_REQUIRE_NVRTC();
    const auto module = compile(kPipeline, "fill");
    const auto other = compile(std::string(kPipeline) + "extern \"C\" __global__ void another() {}\n", "fill");
    ASSERT_TRUE(module && other);
    ASSERT_NE(module->ptx, other->ptx);
    kw::SimBackend sim;
    auto r = sim.residentBuffers();
    const std::size_t a = r->add(buffer("a", std::vector<int>(32, 0)));
    const std::size_t b = r->add(buffer("b", std::vector<int>(32, 0)));
    ASSERT_TRUE(r->launch(kernelOf(*module, "fill"), {bufArg(a), scalar(32)}, config({1}, {32})).ok);
    ASSERT_TRUE(r->launch(kernelOf(*other, "twice"), {bufArg(a), bufArg(b), scalar(32)}, config({1}, {32})).ok);
    EXPECT_EQ(read(*r, b, 32)[5], 10) << "the other module's counter starts at 0";
}

TEST(ResidentBuffers, AFaultIsReportedAndTheBuffersStay)
{
    KW_REQUIRE_NVRTC();
    const auto module = compile(kPipeline, "fill");
    ASSERT_TRUE(module);
    kw::SimBackend sim;
    auto r = sim.residentBuffers();
    const std::size_t a = r->add(buffer("a", std::vector<int>(32, 7)));
    const kw::LaunchReport rep = r->launch(kernelOf(*module, "past"), {bufArg(a)}, config({1}, {32}));
    ASSERT_TRUE(rep.fault);
    EXPECT_EQ(rep.fault->kind, kw::FaultKind::OutOfBounds);
    EXPECT_EQ(r->size(), 1u);
    EXPECT_EQ(read(*r, a, 32)[0], 7);
}

TEST(ResidentBuffers, ReadingAnotherSizeIsRefused)
{
    kw::SimBackend sim;
    auto r = sim.residentBuffers();
    const std::size_t a = r->add(buffer("a", std::vector<int>(8, 0)));
    kw::BufferArg small = buffer("small", std::vector<int>(4, 0));
    EXPECT_THROW(r->read(a, small.data), kw::Error);
    EXPECT_THROW(r->read(5, small.data), kw::Error);
}
