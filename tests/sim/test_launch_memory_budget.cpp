// LaunchMemoryBudget and the parser's caps: what a simulator launch would take of the
// host's memory is known, and refused past the budget, before anything is allocated.
#include "sim/LaunchMemoryBudget.hpp"
#include "sim/PtxParser.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string kernelWithRegisters(int count)
{
    return ".version 8.0\n.target sm_75\n.address_size 64\n"
           ".visible .entry k()\n{\n.reg .b64 %rd<"
        + std::to_string(count) + ">;\nret;\n}\n";
}

TEST(LaunchMemoryBudget, CountsRegistersLocalSharedVariablesAndPrintf)
{
    const kw::sim::Module mod = kw::sim::parsePtx(".version 8.0\n.target sm_75\n.address_size 64\n"
                                                  ".global .align 4 .b8 table[4096];\n"
                                                  ".visible .entry k()\n{\n.reg .b64 %rd<100>;\nret;\n}\n");
    const kw::sim::Function* fn = mod.findFunction("k");
    ASSERT_NE(fn, nullptr);
    const auto m = kw::sim::LaunchMemoryBudget::of(mod, *fn, {48, 1, 1}, 1024, 1 << 20, 4);
    EXPECT_EQ(m.registers, std::uint64_t(64) * fn->numRegs * 8 * 4); // two whole warps of lanes
    EXPECT_EQ(m.shared, 1024u * 4);
    EXPECT_EQ(m.variables, 4096u * 2);
    EXPECT_EQ(m.printf, 1u << 20);
    EXPECT_EQ(m.total(), m.registers + m.local + m.shared + m.variables + m.printf);
}

TEST(LaunchMemoryBudget, ALaunchPastTheBudgetIsRefusedNamingTheBiggestPart)
{
    const kw::sim::Module mod = kw::sim::parsePtx(kernelWithRegisters(200000));
    const auto m = kw::sim::LaunchMemoryBudget::of(mod, *mod.findFunction("k"), {1024, 1, 1}, 0, 1 << 20, 16);
    EXPECT_GT(m.registers, std::uint64_t(24) << 30); // 1.6 GB per worker thread, 16 of them
    try {
        kw::sim::LaunchMemoryBudget::check(m, std::uint64_t(12) << 30);
        FAIL() << "not refused";
    } catch (const kw::Error& e) {
        EXPECT_EQ(e.category(), kw::ErrorCategory::Limit);
        EXPECT_NE(std::string(e.what()).find("the biggest part is registers"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(kw::sim::LaunchMemoryBudget::check(m, m.total()));
}

TEST(LaunchMemoryBudget, HugeSizesSaturateInsteadOfWrapping)
{
    const kw::sim::Module mod = kw::sim::parsePtx(kernelWithRegisters(200000));
    const auto m = kw::sim::LaunchMemoryBudget::of(mod, *mod.findFunction("k"), {4000000000u, 4000000000u, 4000000000u},
                                                   0xffffffffu, ~std::uint64_t(0), 4000000000u);
    EXPECT_EQ(m.total(), ~std::uint64_t(0));
    EXPECT_THROW(kw::sim::LaunchMemoryBudget::check(m, std::uint64_t(1) << 40), kw::Error);
}

TEST(LaunchMemoryBudget, TheModulesVariablesTogetherAreCapped)
{
    std::string ptx = ".version 8.0\n.target sm_75\n.address_size 64\n";
    for (int i = 0; i < 16; ++i) // 16 GiB of globals, each under the per-variable cap
        ptx += ".global .align 4 .b8 big" + std::to_string(i) + "[1073741824];\n";
    ptx += ".visible .entry k()\n{\nret;\n}\n";
    try {
        kw::sim::parsePtx(ptx);
        FAIL() << "16 GiB of variables parsed";
    } catch (const kw::Error& e) {
        EXPECT_NE(std::string(e.what()).find("variables take more than 2 GiB together"), std::string::npos) << e.what();
    }
}

} // namespace

namespace {

TEST(LaunchMemoryBudget, InliningThatGrowsWithoutEndIsStoppedAtTheInstructionCap)
{
    // Each function calls the next four times: 4^12 copies of the innermost body.
    std::string ptx = ".version 8.0\n.target sm_75\n.address_size 64\n.func f12()\n{\nret;\n}\n";
    for (int i = 11; i >= 0; --i) {
        ptx += ".func f" + std::to_string(i) + "()\n{\n";
        for (int k = 0; k < 4; ++k)
            ptx += "call.uni f" + std::to_string(i + 1) + ", ();\n";
        ptx += "ret;\n}\n";
    }
    ptx += ".visible .entry k()\n{\ncall.uni f0, ();\nret;\n}\n";
    try {
        kw::sim::parsePtx(ptx);
        FAIL() << "parsed";
    } catch (const kw::Error& e) {
        EXPECT_NE(std::string(e.what()).find("instructions once its device functions are inlined"), std::string::npos)
            << e.what();
    }
}

} // namespace

namespace {

std::string nestedBlocks(int depth)
{
    std::string ptx = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n";
    for (int d = 0; d < depth; ++d)
        ptx += "{\n.reg .b32 %q<1000>;\n";
    for (int d = 0; d < depth; ++d)
        ptx += "}\n";
    return ptx + "ret;\n}\n";
}

TEST(LaunchMemoryBudget, BlocksNestedPastTheCapAreRefused)
{
    EXPECT_NO_THROW(kw::sim::parsePtx(nestedBlocks(16)));
    try {
        kw::sim::parsePtx(nestedBlocks(17));
        FAIL() << "17 levels parsed";
    } catch (const kw::Error& e) {
        EXPECT_NE(std::string(e.what()).find("blocks nested more than 16 deep"), std::string::npos) << e.what();
    }
}

} // namespace
