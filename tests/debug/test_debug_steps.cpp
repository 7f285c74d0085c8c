// A launch step of a document of steps (version 2), debugged with the buffers as the
// steps before it left them: samples/reduction_two_pass.kwb's second launch adds the
// first launch's partial sums.
#include "DebugTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"

#include <gtest/gtest.h>

namespace {

using namespace kwtest;
using namespace kw::debug;

std::unique_ptr<DebugSession> stepSession(const std::string& step)
{
    const kw::Document doc
        = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/reduction_two_pass.kwb", kw::Trust::Trusted);
    kw::Compiler compiler;
    DebugOptions o;
    o.step = step;
    return DebugSession::fromDocument(doc, compiler, o);
}

const kw::BufferArg& named(const DebugSession& s, const std::string& name)
{
    for (const auto& b : s.buffers())
        if (b.name == name)
            return b;
    throw std::runtime_error("no buffer " + name);
}

TEST(DebugSteps, TheSecondLaunchStartsFromTheFirstLaunchsResults)
{
    KW_REQUIRE_NVRTC();
    auto s = stepSession("total"); // by name; "2" by path
    ASSERT_TRUE(s);
    EXPECT_EQ(s->blocks(), 1u);
    EXPECT_EQ(s->warpsPerBlock(), 32u); // 1024 partial sums, one thread each
    const kw::BufferArg& partial = named(*s, "partial");
    ASSERT_EQ(partial.data.count(), 1024u);
    for (std::size_t i = 0; i < partial.data.count(); ++i)
        ASSERT_EQ(partial.data.at(i), 1920.0) << i; // what the sample's first step checks
    s->focusThread(700);
    EXPECT_EQ(s->evaluate("partial(threadIdx.x) + threadIdx.x").number, 1920.0 + 700);
    EXPECT_EQ(s->resume(Motion::Continue).reason, StopReason::Finished);
    EXPECT_EQ(named(*s, "total").data.at(0), 1920.0 * 1024);

    auto first = stepSession("1");
    EXPECT_EQ(first->blocks(), 1024u);
    EXPECT_EQ(named(*first, "partial").data.at(0), 0.0); // not yet computed
}

std::unique_ptr<DebugSession> heatSession(const std::string& step, std::size_t pass = 0)
{
    const kw::Document doc
        = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/heat_diffusion.kwb", kw::Trust::Trusted);
    kw::Compiler compiler;
    DebugOptions o;
    o.step = step;
    o.pass = pass;
    return DebugSession::fromDocument(doc, compiler, o);
}

// samples/heat_diffusion.kwb's time step on the host: insulated edges, alpha 0.2, 64 x 64.
std::vector<float> heatStep(const std::vector<float>& u)
{
    const int w = 64, h = 64;
    std::vector<float> v(u.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const float c = u[std::size_t(y * w + x)];
            const float l = x > 0 ? u[std::size_t(y * w + x - 1)] : c;
            const float r = x < w - 1 ? u[std::size_t(y * w + x + 1)] : c;
            const float d = y > 0 ? u[std::size_t((y - 1) * w + x)] : c;
            const float t = y < h - 1 ? u[std::size_t((y + 1) * w + x)] : c;
            v[std::size_t(y * w + x)] = c + 0.2f * (l + r + d + t - 4.0f * c);
        }
    return v;
}

// A launch inside a repeat, in a later pass: the buffers as the passes before left them
// (under the names the swaps gave them then).
TEST(DebugSteps, ALaterPassOfARepeatIsNamedByItsNumber)
{
    KW_REQUIRE_NVRTC();
    auto first = heatSession("1.1");
    first->resume(Motion::Continue);
    const kw::BufferArg& out1 = named(*first, "v"); // what pass 1 wrote
    auto second = heatSession("1.1@2");
    ASSERT_TRUE(second);
    const kw::BufferArg& in2 = named(*second, "u"); // the swap made it pass 2's input
    ASSERT_EQ(in2.data.count(), out1.data.count());
    for (std::size_t i = 0; i < in2.data.count(); ++i)
        ASSERT_EQ(in2.data.at(i), out1.data.at(i)) << i;

    EXPECT_THROW(heatSession("time steps"), kw::Error); // the repeat itself launches nothing
    auto fourth = heatSession("1.1", 4);
    std::vector<float> u(4096);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x)
            u[std::size_t(y * 64 + x)] = x >= 24 && x < 40 && y >= 24 && y < 40 ? 100.0f : 0.0f;
    for (int pass = 1; pass < 4; ++pass)
        u = heatStep(u);
    const kw::BufferArg& in4 = named(*fourth, "u");
    for (std::size_t i = 0; i < u.size(); ++i)
        ASSERT_NEAR(in4.data.at(i), u[i], 1e-3) << i;                  // the kernel may contract to fused multiply-adds
    EXPECT_EQ(fourth->evaluate("blockIdx.x + gridDim.x").number, 4.0); // the launch's 4 x 4 grid

    EXPECT_THROW(heatSession("1.1@201"), kw::Error); // 200 passes
    EXPECT_THROW(heatSession("1.1@0"), kw::Error);
    EXPECT_THROW(heatSession("1.1@2", 3), kw::Error);
}

TEST(DebugSteps, AStepThatIsNotThereIsRefused)
{
    KW_REQUIRE_NVRTC();
    EXPECT_THROW(stepSession("7"), kw::Error);
    EXPECT_THROW(stepSession(""), kw::Error);
}

} // namespace
