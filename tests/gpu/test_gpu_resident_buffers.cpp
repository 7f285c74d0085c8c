// Buffers kept on the GPU between launches (cuda/CudaResidentBuffers): the same
// pipeline as the simulator's test (tests/sim/test_resident_buffers.cpp) gives the same
// numbers, the module's __device__ variables live from one launch to the next, and a
// one-launch run afterwards still works, and copies and fills move exactly their ranges.
#include "compile/Compiler.hpp"
#include "cuda/CudaBackend.hpp"
#include "cuda/CudaDevices.hpp"
#include "gpu/GpuTestSupport.hpp"

#include <cstring>

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
)";

kw::KernelImage compileFor(const std::string& arch, const std::string& name)
{
    kw::Compiler compiler;
    kw::CompileRequest request;
    request.source = kPipeline;
    request.options.arch = arch;
    const kw::CompileResult r = compiler.compile(request);
    EXPECT_TRUE(r.ok) << r.log;
    kw::KernelImage k;
    k.name = k.loweredName = name;
    k.ptx = r.ptx;
    k.cubin = r.cubin;
    return k;
}

kw::BufferArg ints(const std::string& name, std::size_t n, int value)
{
    kw::BufferArg b;
    b.name = name;
    b.data = kw::HostBuffer(kw::DType::I32, n);
    for (std::size_t i = 0; i < n; ++i)
        b.data.set(i, value);
    return b;
}

kw::LaunchArg bufferArg(std::size_t i)
{
    kw::LaunchArg a;
    a.isBuffer = true;
    a.buffer = i;
    return a;
}

kw::LaunchArg intArg(int v)
{
    kw::LaunchArg a;
    a.bytes.resize(sizeof v);
    std::memcpy(a.bytes.data(), &v, sizeof v);
    return a;
}

kw::LaunchConfig once(unsigned grid, unsigned block)
{
    kw::LaunchConfig c;
    c.grid = {grid, 1, 1};
    c.block = {block, 1, 1};
    c.warmup = 0;
    c.repeats = 0;
    return c;
}

} // namespace

TEST(GpuResidentBuffers, KernelsOfOneModuleShareBuffersAndVariablesAcrossLaunches)
{
    KW_REQUIRE_GPU();
    kw::cuda::CudaBackend backend(0);
    const kw::KernelImage fill = compileFor(backend.compileArch(), "fill");
    kw::KernelImage twice = fill;
    twice.name = twice.loweredName = "twice";
    const int n = 300;
    {
        auto r = backend.residentBuffers();
        const std::size_t a = r->add(ints("a", n, 0)), b = r->add(ints("b", n, 0));
        for (int pass = 0; pass < 2; ++pass) {
            const kw::LaunchReport f = r->launch(fill, {bufferArg(a), intArg(n)}, once(3, 128));
            ASSERT_TRUE(f.ok) << (f.fault ? f.fault->message : "");
        }
        const kw::LaunchReport t = r->launch(twice, {bufferArg(a), bufferArg(b), intArg(n)}, once(3, 128));
        ASSERT_TRUE(t.ok) << (t.fault ? t.fault->message : "");
        EXPECT_GT(t.timings.firstLaunchMs, 0.0);
        kw::HostBuffer got(kw::DType::I32, n);
        r->read(b, got);
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(got.at(i), 2 * i + 2) << "b[" << i << "]";
    }
    // The one-launch path afterwards: buffers uploaded, launched, read back as before.
    std::vector<kw::BufferArg> buffers{ints("a", 64, 5)};
    kw::LaunchConfig c = once(1, 64);
    c.repeats = 2;
    const kw::LaunchReport rep = backend.launch(fill, buffers, {bufferArg(0), intArg(64)}, c);
    ASSERT_TRUE(rep.ok) << (rep.fault ? rep.fault->message : "");
    EXPECT_EQ(buffers[0].data.at(63), 63);
    EXPECT_EQ(rep.timings.repeatMs.size(), 2u);
}

TEST(GpuResidentBuffers, CopiesAndFillsStayOnTheDeviceAndMoveExactlyTheirRanges)
{
    KW_REQUIRE_GPU();
    kw::cuda::CudaBackend backend(0);
    auto r = backend.residentBuffers();
    const std::size_t n = 1000;
    const std::size_t a = r->add(ints("a", n, 0));
    const std::size_t b = r->add(ints("b", n, -1));
    kw::BufferArg wide;
    wide.name = "wide";
    wide.data = kw::HostBuffer(kw::DType::I64, 777);
    const std::size_t w = r->add(wide);

    // a[i] = i through a kernel, then a[2..5) to b[10..13), and 5s into b[20..987).
    kw::KernelImage fill = compileFor(backend.compileArch(), "fill");
    kw::LaunchConfig config;
    config.grid = {4, 1, 1};
    config.block = {256, 1, 1};
    kw::LaunchArg count;
    const int nInt = int(n);
    count.bytes.resize(4);
    std::memcpy(count.bytes.data(), &nInt, 4);
    ASSERT_FALSE(r->launch(fill, {bufferArg(a), count}, config).fault);
    r->copy(a, 2 * 4, b, 10 * 4, 3 * 4);
    const int five = 5;
    std::vector<std::byte> element(4);
    std::memcpy(element.data(), &five, 4);
    r->fill(b, 20 * 4, element, 967);
    // An 8-byte element over a count that is no power of two: the doubling copies' last one is partial.
    const long long big = 0x1234567887654321LL;
    std::vector<std::byte> element8(8);
    std::memcpy(element8.data(), &big, 8);
    r->fill(w, 8, element8, 775);

    kw::HostBuffer got(kw::DType::I32, n);
    r->read(b, got);
    for (std::size_t i = 0; i < n; ++i) {
        const int expected = i >= 10 && i < 13 ? int(i) - 8 : (i >= 20 && i < 987 ? 5 : -1);
        ASSERT_EQ(got.at(i), expected) << "b[" << i << "]";
    }
    kw::HostBuffer got8(kw::DType::I64, 777);
    r->read(w, got8);
    const auto* v = reinterpret_cast<const long long*>(got8.data());
    EXPECT_EQ(v[0], 0);
    for (std::size_t i = 1; i < 776; ++i)
        ASSERT_EQ(v[i], big) << "wide[" << i << "]";
    EXPECT_EQ(v[776], 0);
}
