#include "compile/Compiler.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/PtxasReportParser.hpp"
#include "support/TextFile.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(KW_TEST_DATA_DIR) / "ptxas_reports";

const KernelResources* find(const std::vector<KernelResources>& all, const std::string& entry)
{
    for (const auto& k : all)
        if (k.entry == entry)
            return &k;
    return nullptr;
}

} // namespace

TEST(PtxasReport, ReadsEveryEntryOfARealReport)
{
    const auto all = parsePtxasReport(test::readTextFile(kDir / "kernels_sm_90.log"));
    ASSERT_EQ(all.size(), 4u);
    const auto* dyn = find(all, "_Z3dynPf");
    ASSERT_NE(dyn, nullptr);
    EXPECT_EQ(dyn->arch, "sm_90");
    EXPECT_EQ(dyn->registers, 24);
    EXPECT_EQ(dyn->barriers, 1);
    EXPECT_EQ(dyn->stackBytes, 8u); // printf's argument buffer
    const auto* scale = find(all, "_Z5scaleIfLi128EEvPT_S0_");
    ASSERT_NE(scale, nullptr);
    EXPECT_EQ(scale->registers, 10);
    EXPECT_EQ(scale->sharedBytes, 512u); // __shared__ float tile[128]
    const auto* heavy = find(all, "_Z5heavyPfi");
    ASSERT_NE(heavy, nullptr);
    EXPECT_EQ(heavy->registers, 72);
    EXPECT_EQ(heavy->spillStoreBytes, 0u);
    const auto* plain = find(all, "plain");
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->registers, 8);
    EXPECT_EQ(plain->sharedBytes, 0u);
}

TEST(PtxasReport, SpillsStackAndConstantBankBelongToTheEntryNotItsDeviceFunctions)
{
    const auto all = parsePtxasReport(test::readTextFile(kDir / "kernels_sm_75_maxrreg16.log"));
    ASSERT_EQ(all.size(), 4u);
    const auto* heavy = find(all, "_Z5heavyPfi");
    ASSERT_NE(heavy, nullptr);
    EXPECT_EQ(heavy->arch, "sm_75");
    EXPECT_EQ(heavy->registers, 24);
    EXPECT_EQ(heavy->stackBytes, 552u);
    EXPECT_EQ(heavy->spillStoreBytes, 8u);
    EXPECT_EQ(heavy->spillLoadBytes, 0u); // helper's 752 bytes are helper's own
    EXPECT_EQ(heavy->constantBytes, 364u);
    EXPECT_EQ(find(all, "_Z3dynPf")->constantBytes, 360u);
}

TEST(PtxasReport, NoReportNoKernels)
{
    EXPECT_TRUE(parsePtxasReport("").empty());
    EXPECT_TRUE(parsePtxasReport("kernel.cu(3): error: identifier \"x\" is undefined\n").empty());
    EXPECT_TRUE(parsePtxasReport("ptxas info    : Used 8 registers\n").empty()); // no entry header
}

TEST(PtxasReport, CompilesForARealArchCarryTheReport)
{
    Compiler compiler;
    CompileRequest req;
    req.source = test::readTextFile(kDir / "kernels.cu");
    req.options.arch = "sm_80";
    req.options.tagPrintf = false;
    const CompileResult r = compiler.compile(req); // NVRTC is a build prerequisite
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.diagnostics.empty()) << "the report is not a diagnostic";
    const auto all = parsePtxasReport(r.log);
    ASSERT_EQ(all.size(), r.entries.size());
    for (const auto& e : r.entries) {
        const auto* k = find(all, e.name);
        ASSERT_NE(k, nullptr) << e.name;
        EXPECT_EQ(k->arch, "sm_80");
        EXPECT_GT(k->registers, 0);
    }

    req.options.arch = "compute_75"; // PTX only: ptxas does not run
    const CompileResult v = compiler.compile(req);
    ASSERT_TRUE(v.ok) << v.log;
    EXPECT_TRUE(parsePtxasReport(v.log).empty());
}

TEST(PtxasReport, RealArchitecturesNvrtcKnows)
{
    // The real architectures are those the loaded NVRTC can compile for: none without one.
    try {
        kw::NvrtcLibrary::instance();
    } catch (const kw::Error& e) {
        FAIL() << e.what();
    }
    EXPECT_EQ(Compiler::realArchFor(9, 0), "sm_90");
    EXPECT_EQ(Compiler::realArchFor(7, 5), "sm_75");
    EXPECT_EQ(Compiler::realArchFor(1, 0), ""); // long gone
    EXPECT_EQ(Compiler::realArchFor(0, 0), ""); // no compute capability: not a GPU
}
