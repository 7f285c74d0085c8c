// Which runs of loads and fmas the warp loop runs as one step (LoadFmaChains), and which of
// their registers the kernel may read after them: the tiled product's inner loop, and
// hand-written PTX where a register is read after the chain, a branch enters it, or its
// first sum comes round a loop.
#include "PtxHarness.hpp"
#include "SimBenchKernels.hpp"
#include "SimTestSupport.hpp"
#include "sim/LoadFmaChains.hpp"
#include "sim/PlainLines.hpp"
#include "sim/PtxParser.hpp"

#include <gtest/gtest.h>

#include <string_view>

using namespace kwtest;
using namespace kw::sim;

namespace {

// Bit `which` (0: x, 1: y, 2: the fma's d) of step `step` in LoadFmaChain::live.
std::uint64_t bit(int step, int which) { return std::uint64_t(1) << (3 * step + which); }

struct Chains {
    Module module;
    const Function* fn = nullptr;
    std::unique_ptr<PlainLines> lines;
    std::unique_ptr<LoadFmaChains> chains;

    Chains(const std::string& ptx, const std::string& entry)
        : module(parsePtx(ptx))
        , fn(module.findFunction(entry))
    {
        lines = std::make_unique<PlainLines>(*fn);
        chains = std::make_unique<LoadFmaChains>(*fn);
    }
    // The pc of the n-th instruction (from 0) whose text begins with `prefix`.
    std::uint32_t pcOf(std::string_view prefix, int n = 0) const
    {
        for (std::uint32_t pc = 0; pc < fn->code.size(); ++pc)
            if (std::string_view(fn->text[pc]).starts_with(prefix) && n-- == 0)
                return pc;
        ADD_FAILURE() << "no " << prefix;
        return 0;
    }
    LoadFmaChain at(std::uint32_t pc) const { return chains->at(pc, lines->length(pc)); }
};

// Values in shared memory, read by every step at its own offset.
const std::string kShared = ".shared .align 4 .b8 buf[256];\n";
const std::string kPrologue = R"(
    mov.u64 %rd6, buf;
    cvt.rn.f32.u32 %f3, %r31;
)";

} // namespace

// NVRTC unrolls the tiled product's `s += As[ty][k] * Bs[k][tx]` into 16 steps that each add
// into the next: one chain, of which only the last sum is read again (the loop's next tile
// and the store); every chain beginning inside it ends at the same place.
TEST(LoadFmaChains, TheTiledProductsInnerLoopIsOneChainThatKeepsOnlyItsSum)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kTiledMatmulSource, "matmul");
    ASSERT_TRUE(img);
    Chains c(img->ptx, img->loweredName);
    const std::uint32_t first = c.pcOf("ld.shared.f32");
    const LoadFmaChain whole = c.at(first);
    EXPECT_EQ(whole.steps, 16u);
    EXPECT_EQ(whole.live, bit(15, 2));
    EXPECT_EQ(c.lines->fused(first).length, 48u);
    const LoadFmaChain rest = c.at(first + 3);
    EXPECT_EQ(rest.steps, 15u);
    EXPECT_EQ(rest.live, bit(14, 2));
    EXPECT_EQ(c.at(first + 1).steps, 0u); // not a step's beginning
}

// A register read after the chain stays written; the others the chain hands on itself.
TEST(LoadFmaChains, ARegisterReadAfterTheChainIsKept)
{
    Chains c(ptxModule(kPrologue + R"(
    ld.shared.f32 %f1, [%rd6];
    ld.shared.f32 %f2, [%rd6+4];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    ld.shared.f32 %f5, [%rd6+8];
    ld.shared.f32 %f6, [%rd6+12];
    fma.rn.f32 %f7, %f6, %f5, %f4;
    mov.b32 %r1, %f7;
    mov.b32 %r2, %f5;
    mov.b64 %rd1, {%r1, %r2};
    st.global.u64 [%rd28], %rd1;
)",
                       kShared),
             "t");
    const LoadFmaChain chain = c.at(c.pcOf("ld.shared.f32"));
    EXPECT_EQ(chain.steps, 2u);
    EXPECT_EQ(chain.live, bit(1, 0) | bit(1, 2));
}

// A branch to a step inside the chain ends the chain before that step (lanes arriving there
// read the registers the steps before wrote); a branch into the first step's middle keeps
// every register of it.
TEST(LoadFmaChains, ABranchIntoTheChainEndsItOrKeepsEveryRegister)
{
    const std::string steps = R"(
    ld.shared.f32 %f1, [%rd6];
    ld.shared.f32 %f2, [%rd6+4];
    fma.rn.f32 %f4, %f1, %f2, %f3;
$Lsecond:
    ld.shared.f32 %f5, [%rd6+8];
    ld.shared.f32 %f6, [%rd6+12];
    fma.rn.f32 %f7, %f6, %f5, %f4;
    mov.b32 %r1, %f7;
    cvt.u64.u32 %rd1, %r1;
    st.global.u64 [%rd28], %rd1;
)";
    const std::string branch = "    setp.eq.u32 %p1, %r31, 7;\n    @%p1 bra $Lsecond;\n";
    Chains c(ptxModule(kPrologue + branch + steps, kShared), "t");
    const std::uint32_t first = c.pcOf("ld.shared.f32");
    EXPECT_EQ(c.at(first).steps, 1u);
    EXPECT_EQ(c.at(first).live, bit(0, 2));
    EXPECT_EQ(c.at(first + 3).steps, 1u);
    EXPECT_EQ(c.at(first + 3).live, bit(0, 2));

    std::string middle = steps;
    middle.replace(middle.find("$Lsecond:\n"), 10, "");
    middle.replace(middle.find("    ld.shared.f32 %f2"), 0, "$Lsecond:\n");
    Chains m(ptxModule(kPrologue + branch + middle, kShared), "t");
    const std::uint32_t at = m.pcOf("ld.shared.f32");
    EXPECT_EQ(m.at(at).steps, 1u);
    EXPECT_EQ(m.at(at).live, 7u);
}

// The first step's c comes round the loop from the chain's last d: kept, though no
// instruction outside the chain names it.
TEST(LoadFmaChains, ASumCarriedRoundALoopIsKept)
{
    Chains c(ptxModule(kPrologue + R"(
    mov.u32 %r1, 0;
$Lloop:
    ld.shared.f32 %f1, [%rd6];
    ld.shared.f32 %f2, [%rd6+4];
    fma.rn.f32 %f4, %f1, %f2, %f8;
    ld.shared.f32 %f5, [%rd6+8];
    ld.shared.f32 %f6, [%rd6+12];
    fma.rn.f32 %f8, %f6, %f5, %f4;
    add.s32 %r1, %r1, 1;
    setp.lt.s32 %p1, %r1, 3;
    @%p1 bra $Lloop;
    mov.b32 %r2, %f4;
    cvt.u64.u32 %rd1, %r2;
    st.global.u64 [%rd28], %rd1;
)",
                       kShared),
             "t");
    const LoadFmaChain chain = c.at(c.pcOf("ld.shared.f32"));
    EXPECT_EQ(chain.steps, 2u);
    EXPECT_EQ(chain.live, bit(0, 2) | bit(1, 2));
}
