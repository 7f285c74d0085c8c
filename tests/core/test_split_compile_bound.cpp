// SplitCompileBound: --split-compile above the machine's cores is lowered to them and
// said so; through the compiler, the value that used to hang NVRTC compiles.
#include "compile/Compiler.hpp"
#include "compile/SplitCompileBound.hpp"

#include <gtest/gtest.h>

namespace {

TEST(SplitCompileBound, LowersAValueAboveTheCoresAndSaysSo)
{
    std::vector<std::string> args = {"-arch=sm_90", "--split-compile=999999999", "-split-compile=3",
                                     "--split-compile=99999999999999999999999", "--split-compile=0"};
    const auto notes = kw::SplitCompileBound::apply(args, 4, "k.cu");
    EXPECT_EQ(args,
              (std::vector<std::string>{"-arch=sm_90", "--split-compile=4", "-split-compile=3", "--split-compile=4",
                                        "--split-compile=0"}));
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].file, "k.cu");
    EXPECT_EQ(notes[0].severity, kw::Severity::Note);
    EXPECT_NE(notes[0].message.find("--split-compile=999999999"), std::string::npos) << notes[0].message;
    EXPECT_NE(notes[0].message.find("4 cores"), std::string::npos) << notes[0].message;
}

TEST(SplitCompileBound, LeavesOtherOptionsAndValuesNvrtcRefusesAlone)
{
    std::vector<std::string> args = {"--split-compile=abc", "--split-compiler=9", "-lineinfo"};
    const auto before = args;
    EXPECT_TRUE(kw::SplitCompileBound::apply(args, 2, "k.cu").empty());
    EXPECT_EQ(args, before);
}

TEST(SplitCompileBound, AValueThatHungNvrtcCompilesAnUntrustedDocument)
{
    kw::CompileRequest r;
    r.source = "__global__ void k(int* p) { p[0] = 1; }\n";
    r.options.arch = "sm_90";
    r.options.extra = {"--split-compile=999999999"};
    r.timeLimit = std::chrono::seconds(60);
    const auto result = kw::Compiler().compile(r);
    EXPECT_TRUE(result.ok) << result.log;
    bool said = false;
    for (const auto& d : result.diagnostics)
        said = said || d.message.find("--split-compile=999999999") != std::string::npos;
    EXPECT_TRUE(said);
}

} // namespace

TEST(SplitCompileBound, RemoveTakesOutEverySplitCompileAndSaysWhetherThereWasOne)
{
    std::vector<std::string> args = {"-arch=sm_90", "--split-compile=2", "-split-compile=3", "-lineinfo"};
    EXPECT_TRUE(kw::SplitCompileBound::remove(args));
    EXPECT_EQ(args, (std::vector<std::string>{"-arch=sm_90", "-lineinfo"}));
    EXPECT_FALSE(kw::SplitCompileBound::remove(args));
    EXPECT_EQ(args.size(), 2u);
}
