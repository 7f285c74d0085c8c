// TerminalText: a kernel's printf shown on a terminal cannot drive it.
#include "util/TerminalText.hpp"

#include <gtest/gtest.h>

using kw::TerminalText;

TEST(TerminalText, EscapesControlsButLineFeedAndTab)
{
    EXPECT_EQ(TerminalText::escape("a\tb\nc"), "a\tb\nc");
    EXPECT_EQ(TerminalText::escape("\x1b[2J\rcheck y passed"), "\\x1b[2J\\x0dcheck y passed");
    EXPECT_EQ(TerminalText::escape("\x1b]52;c;aGk=\x07"), "\\x1b]52;c;aGk=\\x07");
    EXPECT_EQ(TerminalText::escape(std::string("a\0b\x7f", 4)), "a\\x00b\\x7f");
}

TEST(TerminalText, EscapesC1ControlsAndKeepsUtf8Text)
{
    EXPECT_EQ(TerminalText::escape("\xc2\x9b"
                                   "2J"),
              "\\xc2\\x9b2J"); // CSI in UTF-8
    EXPECT_EQ(TerminalText::escape("\x9b"
                                   "2J\x9b"),
              "\\x9b2J\\x9b"); // CSI as one byte
    EXPECT_EQ(TerminalText::escape("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xb5s"),
              "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xb5s");
}
