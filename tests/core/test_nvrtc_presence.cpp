// NvrtcPresence: the window's first-screen question "can kernels compile here?",
// answered by opening the candidates a compile would open.
#include "compile/NvrtcLibrary.hpp"
#include "compile/NvrtcPresence.hpp"
#include "compile/NvrtcSearchOrder.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using kw::NvrtcPresence;

TEST(NvrtcPresence, NoCandidateThatOpensIsNotFoundWithEachPlaceTriedAndWhatToInstall)
{
    const NvrtcPresence p = NvrtcPresence::check({"/nonexistent/one/libnvrtc.so.13", "/nonexistent/two/nvrtc.dll"});
    EXPECT_FALSE(p.found);
    EXPECT_TRUE(p.path.empty());
    ASSERT_EQ(p.tried.size(), 2u);
    EXPECT_NE(p.tried[0].find("/nonexistent/one/"), std::string::npos) << p.tried[0];
    EXPECT_NE(p.tried[1].find("/nonexistent/two/"), std::string::npos) << p.tried[1];
    EXPECT_EQ(p.installHint, kw::NvrtcSearchOrder::installHint());
    EXPECT_NE(p.installHint.find("KWB_NVRTC"), std::string::npos) << p.installHint;
}

TEST(NvrtcPresence, FindsTheLibraryACompileLoadsAndStopsAtTheFirstThatOpens)
{
    std::string loaded;
    try {
        loaded = kw::NvrtcLibrary::instance().path();
    } catch (const kw::Error& e) {
        FAIL() << "NVRTC could not be loaded: " << e.what();
    }
    const NvrtcPresence p = NvrtcPresence::check();
    EXPECT_TRUE(p.found);
    EXPECT_EQ(p.path, loaded);
    EXPECT_TRUE(p.installHint.empty());

    const NvrtcPresence first = NvrtcPresence::check({"/nonexistent/libnvrtc.so.13", loaded, "/nonexistent/later"});
    EXPECT_TRUE(first.found);
    EXPECT_EQ(first.path, loaded);
    EXPECT_EQ(first.tried.size(), 1u) << "the one after the library that opened is not tried";
}
