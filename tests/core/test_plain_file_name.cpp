// The one rule for a name that becomes a file in a folder (util/PlainFileName): a single
// plain component on every system, and a printable form of a name that is not.
#include "util/PlainFileName.hpp"

#include <gtest/gtest.h>

#include <string>

using kw::PlainFileName;
using namespace std::string_literals;

TEST(PlainFileName, BufferNamesArePlain)
{
    for (const std::string name :
         {"c", "a_b", "A1", "x.y", "data-2024", "_tmp", "console", "nul_", "com10", "lpt", "COMA", "\xC3\xA9t\xC3\xA9"})
        EXPECT_TRUE(PlainFileName::isPlain(name)) << name << ": " << PlainFileName::problem(name).value_or("");
}

TEST(PlainFileName, PathsAndTraversalAreRefused)
{
    for (const std::string name : {"../../x", "..", ".", "a/b", "/etc/passwd", "a\\b", "..\\x", "C:x", "dir/"})
        EXPECT_FALSE(PlainFileName::isPlain(name)) << name;
    EXPECT_NE(PlainFileName::problem("../x")->find("'/'"), std::string::npos) << *PlainFileName::problem("../x");
    EXPECT_NE(PlainFileName::problem("..")->find("folder"), std::string::npos);
}

TEST(PlainFileName, NulAndControlCharactersAreRefused)
{
    // "c\0" would be written as "c": the ".npy" after the NUL is lost.
    EXPECT_NE(PlainFileName::problem("c\0"s)->find("NUL"), std::string::npos);
    EXPECT_NE(PlainFileName::problem("\0.npy"s)->find("NUL"), std::string::npos);
    for (const std::string& name : {"a\nb"s, "tab\t"s, "\x1b[31mred"s, "del\x7f"s, "\r"s})
        EXPECT_NE(PlainFileName::problem(name)->find("control"), std::string::npos) << name;
}

TEST(PlainFileName, EmptyAndOverlongNamesAreRefused)
{
    EXPECT_NE(PlainFileName::problem("")->find("empty"), std::string::npos);
    EXPECT_TRUE(PlainFileName::isPlain(std::string(255, 'a')));
    EXPECT_NE(PlainFileName::problem(std::string(256, 'a'))->find("255"), std::string::npos);
}

TEST(PlainFileName, WindowsDeviceNamesAreRefusedInAnyCaseAndWithAnyExtension)
{
    for (const std::string name : {"CON", "con", "Prn", "AUX", "nul", "NUL.npy", "nul.tar.gz", "COM1", "com9", "COM0",
                                   "LPT1", "lpt5.txt", "CONIN$", "conout$", "AUX .npy", "COM\xC2\xB9", "lpt\xC2\xB3"})
        EXPECT_NE(PlainFileName::problem(name).value_or("").find("device name"), std::string::npos) << name;
}

TEST(PlainFileName, WhatWindowsCannotHoldIsRefused)
{
    for (const std::string name : {"a:b", "a<b", "a>b", "a\"b", "a|b", "a?b", "a*b"})
        EXPECT_NE(PlainFileName::problem(name).value_or("").find("Windows"), std::string::npos) << name;
    EXPECT_NE(PlainFileName::problem("name.")->find("dot or a space"), std::string::npos);
    EXPECT_NE(PlainFileName::problem("name ")->find("dot or a space"), std::string::npos);
}

TEST(PlainFileName, QuotedEscapesWhatCouldGarbleATerminalAndCutsLongNames)
{
    EXPECT_EQ(PlainFileName::quoted("c"), "\"c\"");
    EXPECT_EQ(PlainFileName::quoted("c\0"s), "\"c\\x00\"");
    EXPECT_EQ(PlainFileName::quoted("\x1b[2J"), "\"\\x1b[2J\"");
    EXPECT_EQ(PlainFileName::quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
    const std::string quoted = PlainFileName::quoted(std::string(1000, 'x'));
    EXPECT_LT(quoted.size(), 200u);
    EXPECT_NE(quoted.find("1000 bytes"), std::string::npos) << quoted;
}
