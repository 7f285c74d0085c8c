// SourceReadings: the source as the preprocessor's first phases may read it, with the
// line numbers of the source kept.
#include "compile/SourceReadings.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using kw::SourceReadings;

namespace {

TEST(SourceReadings, JoinsSplicesAndGivesTheLineEndsBack)
{
    EXPECT_EQ(SourceReadings::read("#inc\\\r\nlude \"x\"\nint a;\n", false, false), "#include \"x\"\n\nint a;\n");
    EXPECT_EQ(SourceReadings::read("a\\\nb\\\nc\nd", false, false), "abc\n\n\nd");
    EXPECT_EQ(SourceReadings::read("a\\\n", false, false), "a\n");
}

TEST(SourceReadings, LooseSplicesAllowSpacesAndALoneCarriageReturn)
{
    EXPECT_EQ(SourceReadings::read("#inc\\ \t\nlude", false, false), "#inc\\ \t\nlude");
    EXPECT_EQ(SourceReadings::read("#inc\\ \t\nlude", false, true), "#include\n");
    EXPECT_EQ(SourceReadings::read("int x;\r#include", false, false), "int x;\r#include");
    EXPECT_EQ(SourceReadings::read("int x;\r#include", false, true), "int x;\n#include");
    EXPECT_EQ(SourceReadings::read("a\\\rb", false, true), "ab\n");
}

TEST(SourceReadings, ReplacesEveryTrigraphWhenAsked)
{
    EXPECT_EQ(SourceReadings::read("?\?=?\?/?\?'?\?(?\?)?\?!?\?<?\?>?\?-", true, false), "#\\^[]|{}~");
    EXPECT_EQ(SourceReadings::read("?\?=include", false, false), "?\?=include");
    EXPECT_EQ(SourceReadings::read("?\?x ?\?\?=", true, false), "?\?x ?#");
    // A trigraph backslash splices.
    EXPECT_EQ(SourceReadings::read("#def?\?/\nine", true, false), "#define\n");
}

TEST(SourceReadings, OfListsTheDistinctReadingsPlainestFirst)
{
    EXPECT_EQ(SourceReadings::of("int a;\n"), (std::vector<std::string>{"int a;\n"}));
    const auto r = SourceReadings::of("?\?=include \"x\"\n");
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0], "?\?=include \"x\"\n");
    EXPECT_EQ(r[1], "#include \"x\"\n");
}

} // namespace
