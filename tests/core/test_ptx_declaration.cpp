// PtxDeclaration: one PTX declaration read from tokens, every part of its shape.
#include "compile/PtxDeclaration.hpp"

#include <gtest/gtest.h>

using kw::ptx::PtxDeclaration;
using kw::ptx::Token;

namespace {

// Reads the first declaration of `text`, up to its ';' or the end.
struct Read {
    std::vector<Token> tokens;
    PtxDeclaration d;
    explicit Read(std::string_view text)
        : tokens(kw::ptx::tokenize(text))
        , d(PtxDeclaration::read(tokens, 0, tokens.size()))
    {
    }
    const Token& at(std::size_t i) const { return tokens.at(i); }
};

TEST(PtxDeclaration, ReadsEachStateSpace)
{
    for (const char* space : {".reg", ".param", ".shared", ".local", ".const", ".global"}) {
        Read r(std::string(space) + " .u32 x;");
        EXPECT_FALSE(r.d.problem) << space;
        EXPECT_EQ(r.d.space, space);
        EXPECT_EQ(r.d.type, ".u32");
        ASSERT_EQ(r.d.names.size(), 1u);
        EXPECT_EQ(r.d.names[0].text, "x");
        EXPECT_EQ(r.at(r.d.end).text, ";");
    }
}

TEST(PtxDeclaration, ReadsLinkageAlignmentAndVectors)
{
    Read r(".visible .global .align 16 .v4 .f32 table[8] = {1, 2};");
    EXPECT_TRUE(r.d.isVisible);
    EXPECT_FALSE(r.d.isExtern);
    EXPECT_EQ(r.d.space, ".global");
    ASSERT_TRUE(r.d.align);
    EXPECT_EQ(*r.d.align, 16u);
    EXPECT_EQ(r.at(r.d.alignToken).text, "16");
    EXPECT_EQ(r.d.vector, 4);
    EXPECT_EQ(r.d.elementBytes(), 16u);
    EXPECT_EQ(r.d.bytes(r.d.names[0]), 128u);
    EXPECT_EQ(r.at(r.d.end).text, "=");
    ASSERT_NE(r.d.initialiser, PtxDeclaration::npos);
    EXPECT_EQ(r.at(r.d.initialiser).text, "{");

    Read w(".weak .const .align 0x8 .b64 c;");
    EXPECT_TRUE(w.d.isWeak);
    EXPECT_EQ(*w.d.align, 8u);
    EXPECT_EQ(w.d.initialiser, PtxDeclaration::npos);
    EXPECT_FALSE(Read(".global .u32 x;").d.align);
}

TEST(PtxDeclaration, ReadsArraysSizedAndUnsized)
{
    Read r(".shared .align 4 .b8 tile[4][0x10];");
    ASSERT_EQ(r.d.names[0].dims.size(), 2u);
    EXPECT_EQ(r.d.names[0].dims[0].size, 4u);
    EXPECT_EQ(r.d.names[0].dims[1].size, 16u);
    EXPECT_EQ(r.at(r.d.names[0].dims[1].token).text, "0x10");
    EXPECT_FALSE(r.d.names[0].unsized());
    EXPECT_EQ(r.d.names[0].elements(), 64u);

    Read e(".extern .shared .align 16 .b8 dyn[];");
    EXPECT_TRUE(e.d.isExtern);
    EXPECT_TRUE(e.d.names[0].unsized());
    EXPECT_EQ(e.d.names[0].elements(), 0u);
    EXPECT_EQ(e.d.bytes(e.d.names[0]), 0u);

    Read huge(".global .b64 big[4294967296][4294967296];");
    EXPECT_FALSE(huge.d.problem);
    EXPECT_FALSE(huge.d.names[0].elements()) << "the product overflows 64 bits";
    EXPECT_FALSE(huge.d.bytes(huge.d.names[0]));
}

TEST(PtxDeclaration, ReadsRegisterRangesAndSeveralNames)
{
    Read r(".reg .pred %p<4>;");
    ASSERT_TRUE(r.d.names[0].registers);
    EXPECT_EQ(*r.d.names[0].registers, 4u);
    EXPECT_EQ(r.d.names[0].text, "%p");
    EXPECT_EQ(r.at(r.d.names[0].registersToken).text, "4");

    // Directives written together are split by the tokens.
    Read s(".reg.b32 %a, %b<2>, %c;");
    EXPECT_EQ(s.d.type, ".b32");
    ASSERT_EQ(s.d.names.size(), 3u);
    EXPECT_EQ(s.d.names[0].text, "%a");
    EXPECT_FALSE(s.d.names[0].registers);
    EXPECT_EQ(*s.d.names[1].registers, 2u);
    EXPECT_EQ(s.d.names[2].text, "%c");
}

TEST(PtxDeclaration, APointerParametersAlignIsItsPointees)
{
    Read r(".param .u64 .ptr .global .align 16 p, .param .u32 q");
    EXPECT_EQ(r.d.space, ".param");
    EXPECT_TRUE(r.d.isPointer);
    EXPECT_EQ(r.d.pointeeSpace, ".global");
    ASSERT_TRUE(r.d.pointeeAlign);
    EXPECT_EQ(*r.d.pointeeAlign, 16u);
    EXPECT_FALSE(r.d.align) << "the parameter's own alignment was not written";
    ASSERT_EQ(r.d.names.size(), 1u) << "the next parameter is not another name";
    EXPECT_EQ(r.at(r.d.end).text, ",");

    Read packed(".param .align 8 .u64 .ptr.shared.align 4 p)");
    EXPECT_EQ(*packed.d.align, 8u);
    EXPECT_EQ(packed.d.pointeeSpace, ".shared");
    EXPECT_EQ(*packed.d.pointeeAlign, 4u);
    EXPECT_EQ(packed.at(packed.d.end).text, ")");
}

TEST(PtxDeclaration, ReadsWithinARangeAndPassesOverAttributes)
{
    Read r(".global .attribute(.managed) .align 4 .u32 m; .reg .b32 %r;");
    EXPECT_FALSE(r.d.problem);
    EXPECT_EQ(r.d.type, ".u32");
    EXPECT_EQ(r.d.names[0].text, "m");
    // A statement without its ';', as the simulator keeps one.
    const auto second = PtxDeclaration::read(r.tokens, r.d.end + 1, r.tokens.size() - 2);
    EXPECT_FALSE(second.problem);
    EXPECT_EQ(second.space, ".reg");
    EXPECT_EQ(second.names[0].text, "%r");
    EXPECT_EQ(second.end, r.tokens.size() - 2);
}

TEST(PtxDeclaration, CommentsHideDeclarations)
{
    Read r("/* .shared .b8 hidden[4]; */ // .local .b8 nor[4];\n.const .b8 seen[2];");
    EXPECT_EQ(r.d.space, ".const");
    EXPECT_EQ(r.d.names[0].text, "seen");
    EXPECT_EQ(r.at(r.d.names[0].token).line, 2);
}

TEST(PtxDeclaration, AMalformedShapeIsAProblemAtItsToken)
{
    struct Case {
        const char* text;
        const char* what;
        const char* near;
    };
    for (const Case& c : {
             Case{".shared .align .b8 x[4];", "expected a number after .align", ".b8"},
             Case{".shared .b8 x[4;", "expected ']'", ";"},
             Case{".shared .b8 x[y];", "expected an array size", "y"},
             Case{".reg .b32 %r<>;", "expected a register count in '<>'", ">"},
             Case{".reg .b32 ;", "expected a name", ";"},
         }) {
        Read r(c.text);
        ASSERT_TRUE(r.d.problem) << c.text;
        EXPECT_EQ(r.d.problem->what, c.what) << c.text;
        EXPECT_EQ(r.at(r.d.problem->token).text, c.near) << c.text;
    }
}

TEST(PtxDeclaration, ReadingPastTheRangeIsReportedAtItsLastToken)
{
    const auto tokens = kw::ptx::tokenize(".local .align\n8 .b8 x[");
    // The range stops before the End token: the '[' is its last.
    const auto d = PtxDeclaration::read(tokens, 0, tokens.size() - 1);
    ASSERT_TRUE(d.problem);
    EXPECT_EQ(d.problem->what, "expected an array size");
    EXPECT_EQ(tokens[d.problem->token].text, "[");
    EXPECT_EQ(tokens[d.problem->token].line, 2);
    // The whole stream: the End token is where the size was looked for.
    const auto all = PtxDeclaration::read(tokens, 0, tokens.size());
    ASSERT_TRUE(all.problem);
    EXPECT_EQ(tokens[all.problem->token].kind, Token::End);
    EXPECT_FALSE(PtxDeclaration::read(tokens, 0, 0).names.size());
}

TEST(PtxDeclaration, KnowsTheTypesWidths)
{
    EXPECT_EQ(PtxDeclaration::typeBytes(".pred"), 1u);
    EXPECT_EQ(PtxDeclaration::typeBytes(".u16"), 2u);
    EXPECT_EQ(PtxDeclaration::typeBytes(".bf16"), 2u);
    EXPECT_EQ(PtxDeclaration::typeBytes(".f16x2"), 4u);
    EXPECT_EQ(PtxDeclaration::typeBytes(".s64"), 8u);
    EXPECT_EQ(PtxDeclaration::typeBytes(".ptr"), 0u);
    EXPECT_EQ(PtxDeclaration::typeBytes("u32"), 0u);
}

} // namespace
