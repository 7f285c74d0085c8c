// The parsed module keeps each register's PTX name, and for each instruction the
// inlined call frames it executes in (device function, call line and file).
#include "MixedKernel.hpp"
#include "SimTestSupport.hpp"
#include "sim/PtxParser.hpp"

#include <gtest/gtest.h>

namespace {

using namespace kw::sim;

constexpr const char* kPtx = R"(
.version 7.0
.target sm_75
.address_size 64

.func (.param .b32 r) twice(.param .b32 v)
{
    .reg .b32 %q<3>;
    .loc 1 3 0
    ld.param.b32 %q1, [v];
    add.s32 %q2, %q1, %q1;
    st.param.b32 [r], %q2;
    ret;
}

.func (.param .b32 r) quad(.param .b32 v)
{
    .reg .b32 %s<3>;
    .loc 1 6 0
    ld.param.b32 %s1, [v];
    {
        .param .b32 a;
        .param .b32 b;
        st.param.b32 [a], %s1;
        call (b), twice, (a);
        ld.param.b32 %s2, [b];
    }
    shl.b32 %s2, %s2, 1;
    st.param.b32 [r], %s2;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    .loc 1 10 0
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    .loc 1 12 0
    {
        .param .b32 a;
        .param .b32 b;
        st.param.b32 [a], %r1;
        call (b), quad, (a);
        ld.param.b32 %r2, [b];
    }
    .loc 1 13 0
    st.global.u32 [%rd1], %r2;
    ret;
}
.file 1 "kernel.cu"
)";

std::uint32_t pcOf(const Function& fn, const std::string& text)
{
    for (std::uint32_t pc = 0; pc < fn.text.size(); ++pc)
        if (fn.text[pc] == text)
            return pc;
    ADD_FAILURE() << "no instruction " << text;
    return 0;
}

TEST(SimNamesFrames, RegistersKeepTheirPtxNames)
{
    const Module mod = parsePtx(kPtx);
    const Function& fn = *mod.findFunction("k");
    const Instr& mov = fn.code[pcOf(fn, "mov.u32 %r1, %tid.x;")];
    EXPECT_EQ(fn.registerName(mov.d[0]), "%r1");
    EXPECT_EQ(fn.registerName(mov.a[0]), "%tid.x");
    const Instr& add = fn.code[pcOf(fn, "add.s32 %q2, %q1, %q1;")];
    EXPECT_EQ(fn.registerName(add.d[0]), "%q2");
    EXPECT_EQ(fn.registerName(add.a[0]), "%q1");
    const Instr& st = fn.code[pcOf(fn, "st.global.u32 [%rd1], %r2;")];
    EXPECT_EQ(fn.registerName(st.addr), "%rd1");
    EXPECT_EQ(fn.registerName(st.a[0]), "%r2");
    EXPECT_EQ(fn.registerName(RegZero), "");
    EXPECT_EQ(fn.registerName(fn.numRegs + 5), "");
}

TEST(SimNamesFrames, AnInlinedInstructionNamesItsFunctionsAndCallLines)
{
    const Module mod = parsePtx(kPtx);
    const Function& fn = *mod.findFunction("k");
    const auto inner = fn.callStack(pcOf(fn, "add.s32 %q2, %q1, %q1;"));
    ASSERT_EQ(inner.size(), 3u);
    EXPECT_EQ(inner[0]->function, "twice");
    EXPECT_EQ(inner[0]->callLine, 6u); // called on quad's line
    EXPECT_EQ(mod.fileName(inner[0]->callFile), "kernel.cu");
    EXPECT_EQ(inner[1]->function, "quad");
    EXPECT_EQ(inner[1]->callLine, 12u);
    EXPECT_EQ(inner[2]->function, "k");
    EXPECT_EQ(fn.code[pcOf(fn, "add.s32 %q2, %q1, %q1;")].line, 3u); // the callee's own line

    const auto middle = fn.callStack(pcOf(fn, "shl.b32 %s2, %s2, 1;"));
    ASSERT_EQ(middle.size(), 2u);
    EXPECT_EQ(middle[0]->function, "quad");
    const auto outer = fn.callStack(pcOf(fn, "st.global.u32 [%rd1], %r2;"));
    ASSERT_EQ(outer.size(), 1u);
    EXPECT_EQ(outer[0]->function, "k");
    EXPECT_EQ(fn.frame.size(), fn.code.size());
}

TEST(SimNamesFrames, NvrtcsDeviceFunctionCallHasAFrame)
{
    KW_REQUIRE_NVRTC();
    auto img = kwtest::compile(kwtest::kMixedSource, "mixed");
    ASSERT_TRUE(img);
    const Module mod = parsePtx(img->ptx);
    const Function& fn = *mod.findFunction("mixed");
    const auto callee = std::uint32_t(kwtest::lineOf(kwtest::kMixedSource, "// callee"));
    const auto call = std::uint32_t(kwtest::lineOf(kwtest::kMixedSource, "// call site"));
    int found = 0;
    for (std::uint32_t pc = 0; pc < fn.code.size(); ++pc) {
        if (fn.code[pc].line != callee)
            continue;
        const auto stack = fn.callStack(pc);
        ASSERT_EQ(stack.size(), 2u);
        EXPECT_TRUE(kwtest::contains(stack[0]->function, "twice")) << stack[0]->function;
        EXPECT_EQ(stack[0]->callLine, call);
        ++found;
    }
    EXPECT_GT(found, 0);
}

} // namespace
