// Every sample runs on the simulator compiled with -G (the debugger's default build: real
// calls to device functions, more .local memory, no optimization) and gives the same
// outputs, byte for byte, as the optimized build without contracted multiply-adds.
// -G turns off FMA contraction as nvcc does, so the comparison is with --fmad=false:
// against the default build the float samples differ in their last bits, on a GPU too.
#include "../sim/SimTestSupport.hpp"
#include "../support/Samples.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

RunResult runSample(const std::string& stem, bool deviceDebug)
{
    Document doc = DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + stem + ".kwb", Trust::Trusted);
    doc.options.deviceDebug = deviceDebug;
    if (!deviceDebug)
        doc.options.extra.push_back("--fmad=false");
    Compiler compiler;
    SimBackend sim;
    RunEngine engine(compiler, sim);
    RunOverrides o;
    o.repeats = 0;
    o.warmup = 0;
    return engine.run(doc, o);
}

class SampleUnderG : public testing::TestWithParam<std::string> { };

} // namespace

TEST_P(SampleUnderG, GivesTheOutputsOfTheOptimizedBuild)
{
    KW_REQUIRE_NVRTC();
    const RunResult optimized = runSample(GetParam(), false);
    const RunResult debug = runSample(GetParam(), true);
    ASSERT_FALSE(optimized.fault) << optimized.fault->message;
    ASSERT_FALSE(debug.fault) << debug.fault->message;
    EXPECT_EQ(debug.ok, optimized.ok);
    EXPECT_EQ(debug.printf.raw, optimized.printf.raw);
    ASSERT_EQ(debug.buffers.size(), optimized.buffers.size());
    for (std::size_t b = 0; b < debug.buffers.size(); ++b) {
        const HostBuffer& d = debug.buffers[b].data;
        const HostBuffer& o = optimized.buffers[b].data;
        EXPECT_TRUE(d.bytes() == o.bytes()) << GetParam() << ": " << debug.buffers[b].name;
    }
}

INSTANTIATE_TEST_SUITE_P(All, SampleUnderG, testing::ValuesIn(kw::test::sampleStems()),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });
