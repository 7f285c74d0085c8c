#include "util/Text.hpp"

#include <gtest/gtest.h>

using kw::splitLines;
using kw::trim;

TEST(Text, TrimRemovesWhiteSpaceAtBothEnds)
{
    EXPECT_EQ(trim("  a b\t\r\n"), "a b");
    EXPECT_EQ(trim("\v\fx"), "x");
    EXPECT_EQ(trim(" \t "), "");
    EXPECT_EQ(trim(""), "");
    EXPECT_EQ(trim("inner  space"), "inner  space");
}

TEST(Text, SplitLinesCountsAsAnEditorDoes)
{
    using V = std::vector<std::string_view>;
    EXPECT_EQ(splitLines(""), V{""});
    EXPECT_EQ(splitLines("a"), V{"a"});
    EXPECT_EQ(splitLines("a\n"), (V{"a", ""}));
    EXPECT_EQ(splitLines("a\n\nb"), (V{"a", "", "b"}));
}

TEST(Text, SplitLinesDropsTheCarriageReturnOfCrlf)
{
    using V = std::vector<std::string_view>;
    EXPECT_EQ(splitLines("a\r\nb\r\n"), (V{"a", "b", ""}));
    EXPECT_EQ(splitLines("a\rb"), V{"a\rb"}); // a lone CR is not a line break
}
