#include "compile/Compiler.hpp"
#include "compile/PrintfTagger.hpp"
#include "run/PrintfLineParser.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

// The user's text lines of a tagged source (after the #line directive).
std::vector<std::string> userLines(const std::string& tagged)
{
    std::size_t at = tagged.find("#line 1 ");
    std::string body = at == std::string::npos ? tagged : tagged.substr(tagged.find('\n', at) + 1);
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t end = body.find('\n', start);
        if (end == std::string::npos)
            end = body.size();
        lines.push_back(body.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

} // namespace

TEST(PrintfTagger, LiteralFormatGetsTagAndArgs)
{
    auto t = PrintfTagger::tag("__global__ void k(int a)\n{\n    printf(\"a=%d\\n\", a);\n}\n", "k.cu");
    EXPECT_EQ(t.taggedCalls, 1);
    EXPECT_EQ(t.untaggedCalls, 0);
    auto lines = userLines(t.text);
    ASSERT_GE(lines.size(), 4u);
    EXPECT_EQ(lines[0], "__global__ void k(int a)");
    EXPECT_EQ(lines[2], "    printf(KW_PRINTF_TAG \"a=%d\\n\" KW_PRINTF_TAG_ARGS, a);");
    EXPECT_NE(t.text.find("#line 1 \"k.cu\""), std::string::npos);
    // Columns after the insertions map back to the user's columns.
    EXPECT_EQ(t.userColumn(3, 5), 5); // "printf"
    EXPECT_EQ(t.userColumn(3, 12), 12) << "inside the inserted tag maps to its insertion point";
    EXPECT_EQ(t.userColumn(3, 12 + 14), 12); // the literal itself
    int aTagged = static_cast<int>(lines[2].rfind("a)")) + 1;
    EXPECT_EQ(t.userColumn(3, aTagged), 22);
    EXPECT_EQ(t.userColumn(1, 7), 7) << "untouched lines keep their columns";
}

TEST(PrintfTagger, NonLiteralFormatsStayUntagged)
{
    auto t = PrintfTagger::tag("__device__ const char* f = \"x\";\n"
                               "__global__ void k() { printf(f); printf(cond ? \"a\" : \"b\"); printf(L\"w\"); }\n",
                               "k.cu");
    EXPECT_EQ(t.taggedCalls, 0);
    EXPECT_EQ(t.untaggedCalls, 3);
    EXPECT_EQ(t.text.find("KW_PRINTF_TAG"), std::string::npos) << "nothing tagged: the source is unchanged";
}

TEST(PrintfTagger, MultiLineAndConcatenatedFormats)
{
    std::string src = "__global__ void k(int a, unsigned long long b)\n"
                      "{\n"
                      "    printf(\"first \" // comment\n"
                      "           \"second %d \"\n"
                      "           \"%\" PRIu64 \"\\n\",\n"
                      "           a, b);\n"
                      "    obj.printf(\"member\");\n"
                      "    // printf(\"commented\");\n"
                      "}\n";
    auto t = PrintfTagger::tag(src, "k.cu");
    EXPECT_EQ(t.taggedCalls, 1);
    auto lines = userLines(t.text);
    EXPECT_EQ(lines[2], "    printf(KW_PRINTF_TAG \"first \" // comment");
    EXPECT_EQ(lines[3], "           \"second %d \"");
    EXPECT_EQ(lines[4], "           \"%\" PRIu64 \"\\n\" KW_PRINTF_TAG_ARGS,");
    EXPECT_EQ(lines[6], "    obj.printf(\"member\");");
    EXPECT_EQ(lines.size(), 10u) << "no line added or removed";
}

TEST(PrintfTagger, DiagnosticColumnsPointAtTheUsersText)
{
    Compiler compiler;
    CompileRequest req;
    req.source = "__global__ void k(int a)\n"
                 "{\n"
                 "    printf(\"a=%d %d\\n\", a, missing);\n"
                 "}\n";
    auto tagged = compiler.compile(req);
    req.options.tagPrintf = false;
    auto plain = compiler.compile(req);
    ASSERT_EQ(tagged.diagnostics.size(), 1u) << tagged.log;
    ASSERT_EQ(plain.diagnostics.size(), 1u) << plain.log;
    EXPECT_EQ(tagged.diagnostics[0].line, 3);
    EXPECT_EQ(tagged.diagnostics[0].column, 28);
    EXPECT_EQ(tagged.diagnostics[0].column, plain.diagnostics[0].column);
    EXPECT_EQ(tagged.diagnostics[0].file, "kernel.cu");
}

TEST(PrintfTagger, TwoCallsOnOneLineMapEveryColumnBack)
{
    std::string line = "printf(\"a\"); printf(\"b%d\", x);";
    auto t = PrintfTagger::tag(line + "\n", "k.cu");
    EXPECT_EQ(t.taggedCalls, 2);
    std::string tagged = userLines(t.text)[0];
    // Every character of the user's line is found at its own column again.
    for (std::size_t i = 0; i < line.size(); ++i) {
        int userColumn = static_cast<int>(i) + 1;
        int shift = 0; // inserted bytes before this character
        for (auto [column, length] : t.insertions.at(1))
            if (column <= userColumn)
                shift += length;
        int taggedColumn = userColumn + shift;
        ASSERT_EQ(tagged[static_cast<std::size_t>(taggedColumn - 1)], line[i]) << i;
        EXPECT_EQ(t.userColumn(1, taggedColumn), userColumn) << i;
    }
}

TEST(PrintfTagger, TaggedKernelCompilesAndPrintsTheTag)
{
    Compiler compiler;
    CompileRequest req;
    req.source = "#include <cstdio>\n__global__ void k(int a) { printf(\"hello %d\\n\", a); }\n";
    auto r = compiler.compile(req);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.diagnostics.empty()) << r.log;
    // The format string in the PTX starts with the tag's bytes (0x1e = 30).
    EXPECT_NE(r.ptx.find("{30, 37, 117, 44"), std::string::npos) << r.ptx;
}

TEST(PrintfLineParser, TaggedLinesUntaggedLinesAndRaw)
{
    std::string captured = "\x1e"
                           "0,0,0;1,0,0\x1f"
                           "hello from 1\n"
                           "plain line\n"
                           "\x1e"
                           "2,1,0;3,4,5\x1f"
                           "second\n";
    auto out = PrintfLineParser::parse(captured);
    ASSERT_EQ(out.lines.size(), 2u);
    EXPECT_EQ(out.lines[0].thread.x, 1u);
    EXPECT_EQ(out.lines[0].block.x, 0u);
    EXPECT_EQ(out.lines[0].text, "hello from 1");
    EXPECT_EQ(out.lines[1].block.x, 2u);
    EXPECT_EQ(out.lines[1].block.y, 1u);
    EXPECT_EQ(out.lines[1].thread.x, 3u);
    EXPECT_EQ(out.lines[1].thread.y, 4u);
    EXPECT_EQ(out.lines[1].thread.z, 5u);
    EXPECT_EQ(out.lines[1].text, "second");
    ASSERT_EQ(out.untagged.size(), 1u);
    EXPECT_EQ(out.untagged[0], "plain line");
    EXPECT_EQ(out.raw, "hello from 1\nplain line\nsecond\n");
    EXPECT_FALSE(out.truncated);
}

TEST(PrintfLineParser, RecordEndsAtNextTagAndUnterminatedLastLine)
{
    std::string captured = "\x1e"
                           "0,0,0;0,0,0\x1f"
                           "no newline"
                           "\x1e"
                           "0,0,0;1,0,0\x1f"
                           "a\n"
                           "\x1e"
                           "0,0,0;2,0,0\x1f"
                           "cut off";
    auto out = PrintfLineParser::parse(captured);
    ASSERT_EQ(out.lines.size(), 3u);
    EXPECT_EQ(out.lines[0].text, "no newline");
    EXPECT_EQ(out.lines[1].text, "a");
    EXPECT_EQ(out.lines[2].text, "cut off");
    EXPECT_EQ(out.lines[2].thread.x, 2u);
    EXPECT_EQ(out.raw, "no newlinea\ncut off");
    EXPECT_TRUE(out.untagged.empty());
}

TEST(PrintfLineParser, EmptyLinesAndBrokenTags)
{
    std::string captured = "\x1e"
                           "1,1,1;1,1,1\x1f"
                           "\n" // tagged empty line
                           "\n" // untagged empty line
                           "\x1e"
                           "bad\x1f"
                           "text\n" // not a tag: kept as text
                           "\x1e"
                           "1,2\n"; // truncated tag
    auto out = PrintfLineParser::parse(captured);
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.lines[0].text, "");
    ASSERT_EQ(out.untagged.size(), 3u);
    EXPECT_EQ(out.untagged[0], "");
    EXPECT_EQ(out.untagged[1],
              "\x1e"
              "bad\x1f"
              "text");
    EXPECT_EQ(out.untagged[2],
              "\x1e"
              "1,2");
    EXPECT_TRUE(PrintfLineParser::parse("").lines.empty());
    EXPECT_TRUE(PrintfLineParser::parse("").raw.empty());
}
