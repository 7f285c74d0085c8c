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

TEST(DebugSteps, AStepThatIsNotThereIsRefused)
{
    KW_REQUIRE_NVRTC();
    EXPECT_THROW(stepSession("7"), kw::Error);
    EXPECT_THROW(stepSession(""), kw::Error);
}

} // namespace
