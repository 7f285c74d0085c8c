#include "util/LineDiff.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {
std::string kinds(const std::vector<DiffLine>& d)
{
    std::string s;
    for (const DiffLine& l : d)
        s += l.kind == DiffLine::Kind::Same ? '=' : l.kind == DiffLine::Kind::Added ? '+' : '-';
    return s;
}
} // namespace

TEST(LineDiff, IdenticalTextsAreAllSame)
{
    const auto d = LineDiff::compare("a\nb\nc\n", "a\nb\nc\n");
    EXPECT_EQ(kinds(d), "===");
    EXPECT_TRUE(LineDiff::identical(d));
}

TEST(LineDiff, ChangedLineIsRemovedThenAddedWithLineNumbers)
{
    const auto d = LineDiff::compare("for\n  x = a[i];\nend\n", "for\n  x = __ldg(&a[i]);\nend\n");
    ASSERT_EQ(kinds(d), "=-+=");
    EXPECT_EQ(d[1].text, "  x = a[i];");
    EXPECT_EQ(d[1].oldLine, 2);
    EXPECT_EQ(d[1].newLine, 0);
    EXPECT_EQ(d[2].text, "  x = __ldg(&a[i]);");
    EXPECT_EQ(d[2].newLine, 2);
    EXPECT_EQ(d[3].oldLine, 3);
    EXPECT_EQ(d[3].newLine, 3);
    EXPECT_FALSE(LineDiff::identical(d));
}

TEST(LineDiff, InsertionsAndDeletionsInTheMiddleKeepTheCommonLines)
{
    const auto d = LineDiff::compare("1\n2\n3\n4\n5\n", "1\n3\nnew\n4\n5\n6\n");
    EXPECT_EQ(kinds(d), "=-=+==+");
    EXPECT_EQ(d.back().text, "6");
    EXPECT_EQ(d.back().newLine, 6);
}

TEST(LineDiff, EmptySides)
{
    EXPECT_EQ(kinds(LineDiff::compare("", "a\nb")), "++");
    EXPECT_EQ(kinds(LineDiff::compare("a\nb", "")), "--");
    EXPECT_TRUE(LineDiff::compare("", "").empty());
}
