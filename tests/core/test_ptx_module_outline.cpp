// PtxModuleOutline: a module's declarations per function, and the readers built on it
// (PtxResources, parsePtxEntries) on malformed text.
#include "compile/PtxEntryParser.hpp"
#include "compile/PtxModuleOutline.hpp"
#include "compile/PtxResources.hpp"

#include <gtest/gtest.h>

using kw::ptx::PtxModuleOutline;

namespace {

const char* kModule = R"(.version 8.5
.target sm_90, debug
.address_size 64
.file 1 "kernel.cu", 1700000000, 512

.global .align 4 .u32 counter = 7;
.const .align 8 .b8 table[16] = {1, 2, 3};
.extern .shared .align 16 .b8 dyn[];

.func (.param .b32 retval) helper(.param .b32 x)
{
	.local .align 4 .b8 depot[8];
	ret;
}

.visible .entry k(
	.param .u64 .ptr .global .align 4 k_param_0,
	.param .align 16 .b8 k_param_1[32]
)
.maxntid 128, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<5>;
	.loc	1 10 3
	ld.v2.u32 	{%r1, %r2}, [%rd1];
$L__BB0_1:
	{
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	}
	ret;
}
.extern .func ext(.param .b64 p);
)";

TEST(PtxModuleOutline, ModuleVariablesFunctionsParametersAndBodies)
{
    const auto o = PtxModuleOutline::read(kModule);
    EXPECT_TRUE(o.problems.empty()) << o.problems[0].what;
    ASSERT_EQ(o.variables.size(), 3u);
    EXPECT_EQ(o.variables[0].names[0].text, "counter");
    EXPECT_EQ(o.variables[1].space, ".const");
    EXPECT_TRUE(o.variables[2].isExtern);

    ASSERT_EQ(o.functions.size(), 3u);
    const auto& helper = o.functions[0];
    EXPECT_FALSE(helper.isEntry);
    EXPECT_EQ(helper.name, "helper");
    ASSERT_EQ(helper.returns.size(), 1u);
    EXPECT_EQ(helper.returns[0].names[0].text, "retval");
    ASSERT_EQ(helper.params.size(), 1u);
    ASSERT_EQ(helper.body.size(), 1u);
    EXPECT_EQ(helper.body[0].declaration.space, ".local");

    const auto& k = o.functions[1];
    EXPECT_TRUE(k.isEntry);
    EXPECT_EQ(k.name, "k");
    EXPECT_EQ(k.line, 16);
    EXPECT_TRUE(k.hasBody);
    ASSERT_EQ(k.params.size(), 2u);
    EXPECT_EQ(*k.params[0].pointeeAlign, 4u);
    EXPECT_EQ(*k.params[1].align, 16u);
    // The vector operand's braces are not a block; the call's are.
    ASSERT_EQ(k.body.size(), 4u);
    EXPECT_EQ(k.body[0].depth, 1);
    EXPECT_EQ(k.body[1].declaration.names[0].text, "%r");
    EXPECT_EQ(k.body[2].declaration.names[0].text, "temp_param_reg");
    EXPECT_EQ(k.body[2].depth, 2);
    EXPECT_EQ(k.body[3].declaration.space, ".param");
    EXPECT_EQ(k.body[3].depth, 2);

    EXPECT_EQ(o.functions[2].name, "ext");
    EXPECT_FALSE(o.functions[2].hasBody);
}

TEST(PtxModuleOutline, CommentedOutDeclarationsAreNotRead)
{
    const auto o = PtxModuleOutline::read("// .global .u32 a;\n/* .entry gone() { .reg .b32 %r; }\n*/"
                                          ".entry k() { // .reg .b32 %hidden;\n .reg .b32 %r; ret; }");
    EXPECT_TRUE(o.variables.empty());
    ASSERT_EQ(o.functions.size(), 1u);
    ASSERT_EQ(o.functions[0].body.size(), 1u);
    EXPECT_EQ(o.functions[0].body[0].declaration.names[0].text, "%r");
}

TEST(PtxModuleOutline, MalformedTextIsReportedWithItsLineAndReadingGoesOn)
{
    const auto o = PtxModuleOutline::read(".global .b8 bad[x];\n"
                                          ".entry k(.param .u32 a b, .param .u32 c)\n{\n"
                                          ".reg .b32 %r<;\n"
                                          ".reg .b32 %ok;\n"
                                          "}\n"
                                          "ret;\n"
                                          ".entry cut(.param .u64");
    ASSERT_EQ(o.problems.size(), 5u);
    EXPECT_EQ(o.problems[0].line, 1);
    EXPECT_EQ(o.problems[0].what, "expected an array size");
    EXPECT_EQ(o.problems[1].line, 2);
    EXPECT_EQ(o.problems[1].what, "expected ',' or ')' after a parameter");
    EXPECT_EQ(o.problems[2].line, 4);
    EXPECT_EQ(o.problems[3].line, 7);
    EXPECT_EQ(o.problems[3].what, "unexpected 'ret' at module scope");
    EXPECT_EQ(o.problems[4].what, "expected a name");
    EXPECT_TRUE(o.variables.empty());
    ASSERT_EQ(o.functions.size(), 2u);
    ASSERT_EQ(o.functions[0].params.size(), 2u);
    EXPECT_EQ(o.functions[0].params[1].names[0].text, "c");
    ASSERT_EQ(o.functions[0].body.size(), 1u);
    EXPECT_EQ(o.functions[0].body[0].declaration.names[0].text, "%ok");
    EXPECT_EQ(o.functions[1].name, "cut");
}

TEST(PtxModuleOutline, AnUnterminatedBodyEndsAtTheNextFunction)
{
    const auto o = PtxModuleOutline::read(".entry a() { .reg .b32 %r<2>; add.s32 %r0, %r1\n"
                                          ".entry b() { .reg .f32 %f; }");
    ASSERT_EQ(o.functions.size(), 2u);
    ASSERT_EQ(o.problems.size(), 1u);
    EXPECT_EQ(o.problems[0].what, "unterminated function body");
    EXPECT_EQ(o.problems[0].line, 2);
    ASSERT_EQ(o.functions[1].body.size(), 1u);
    EXPECT_EQ(o.functions[1].body[0].declaration.type, ".f32");
}

TEST(PtxResources, NeverThrowsOnMalformedOrHugeDeclarations)
{
    for (const char* ptx : {
             ".entry k() { .reg .b32 %r<99999999999999999999999>; .local .b8 x[99999999999999999999]; }",
             ".entry k() { .shared .b64 s[4294967296][4294967296]; .local .b8 l[18446744073709551615]; }",
             ".entry k( .param",
             ".entry k() { .reg .b32 %r<",
             ".entry",
             "{{{{ }}}} ; .shared",
             ".visible .visible",
             "/* never closed",
         }) {
        EXPECT_NO_THROW((void)kw::PtxResources::parse(ptx)) << ptx;
        EXPECT_NO_THROW((void)kw::parsePtxEntries(ptx)) << ptx;
    }
    const auto r = kw::PtxResources::parse(
        ".entry k() { .shared .b64 s[4294967296][4294967296]; .local .b8 a[18446744073709551615]; "
        ".local .b8 b[2]; }");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].sharedBytes, ~std::size_t(0)) << "held at the largest size";
    EXPECT_EQ(r[0].localBytes, ~std::size_t(0));
}

TEST(PtxResources, CountsEveryNameVectorWidthAndDeviceFunctionsAtModuleScope)
{
    const auto r = kw::PtxResources::parse(".func f() { .local .b8 depot[24]; .reg .b32 %x<100>; ret; }\n"
                                           ".entry k() { .reg .b64 %a, %b; .shared .v4 .f32 v[2]; ret; }");
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].entry, "");
    EXPECT_EQ(r[0].localBytes, 24u);
    EXPECT_TRUE(r[0].registers.empty()) << "a device function's registers are not a kernel's";
    EXPECT_EQ(r[1].registers.at(".b64"), 2);
    EXPECT_EQ(r[1].registers32, 4);
    EXPECT_EQ(r[1].sharedBytes, 32u);
}

} // namespace
