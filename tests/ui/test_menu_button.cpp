// MenuButton: a tool button that opens its menu, its text drawn clear of the arrow the
// style puts in its lower right corner (a plain QToolButton's text ran into it), at the
// style's own size. Judged on the pixels drawn: the text's and the arrow's columns.
#include "MenuButton.hpp"

#include <QImage>
#include <QMenu>
#include <QTest>
#include <QToolButton>
#include <gtest/gtest.h>

#include <utility>

using kw::MenuButton;

namespace {

QImage drawn(QToolButton& b) { return b.grab().toImage().convertToFormat(QImage::Format_ARGB32); }

// The leftmost and rightmost columns where two pictures of one size differ.
std::pair<int, int> differingColumns(const QImage& a, const QImage& b)
{
    int first = a.width(), last = -1;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (a.pixel(x, y) != b.pixel(x, y)) {
                first = std::min(first, x);
                last = std::max(last, x);
            }
    return {first, last};
}

struct Columns {
    std::pair<int, int> text, arrow;
};

// The text's columns (the button drawn with and without it) and the arrow's (with and
// without its menu), at the button's size hint.
Columns columnsOf(QToolButton& b, const QString& text)
{
    QMenu menu;
    menu.addAction("one");
    b.setText(text);
    b.setMenu(&menu);
    b.resize(b.sizeHint());
    b.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&b));
    const QImage whole = drawn(b);
    b.setText(QString());
    b.resize(b.sizeHint().expandedTo(whole.size())); // kept at the same size
    b.setFixedSize(whole.size() / b.devicePixelRatioF());
    const QImage noText = drawn(b);
    b.setText(text);
    b.setMenu(nullptr);
    const QImage noArrow = drawn(b);
    return {differingColumns(whole, noText), differingColumns(whole, noArrow)};
}

} // namespace

// Columns left empty between the text and the arrow: enough that they read as two things.
constexpr int clearColumns = 3;

TEST(MenuButton, ItsTextEndsLeftOfTheMenusArrowAtTheStylesSize)
{
    for (const QString& text : {QString("Runners"), QString("Add"), QString("Some longer words")}) {
        MenuButton button(text);
        EXPECT_EQ(button.popupMode(), QToolButton::InstantPopup) << "a click opens the menu";
        QToolButton plain;
        plain.setText(text);
        plain.setPopupMode(QToolButton::InstantPopup);
        EXPECT_EQ(button.sizeHint(), plain.sizeHint()) << "no wider than the style makes it";
        const Columns c = columnsOf(button, text);
        ASSERT_GE(c.text.second, 0) << text.toStdString() << ": no text drawn";
        ASSERT_GE(c.arrow.second, 0) << text.toStdString() << ": no arrow drawn";
        EXPECT_LT(c.text.second, c.arrow.first)
            << text.toStdString() << ": text to column " << c.text.second << ", arrow from " << c.arrow.first;
        EXPECT_GT(c.text.first, 0) << text.toStdString() << ": the text keeps a left margin";
    }
}

TEST(MenuButton, APlainToolButtonsTextRunsUpToTheArrow)
{
    // What MenuButton is for: at the style's size a plain button's text ends a column or
    // two before the arrow, or under it, by the font.
    QToolButton plain;
    plain.setPopupMode(QToolButton::InstantPopup);
    const Columns c = columnsOf(plain, "Runners");
    EXPECT_LT(c.arrow.first - c.text.second - 1, clearColumns)
        << "text to column " << c.text.second << ", arrow from " << c.arrow.first;
}
