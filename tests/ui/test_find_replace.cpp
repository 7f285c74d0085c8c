// Find and replace driven through the dialog's own widgets on a CodeEditor.
#include "CodeEditor.hpp"
#include "FindReplaceDialog.hpp"
#include "qstring_printer.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

namespace {

struct Find {
    CodeEditor editor;
    FindReplaceDialog* dialog;
    QLineEdit* findEdit;
    QLineEdit* replaceEdit;
    QCheckBox* matchCase;
    QCheckBox* wholeWords;
    QCheckBox* regex;
    QPushButton* next;
    QPushButton* replaceOne;
    QPushButton* replaceAll;
    QLabel* status;

    explicit Find(const QString& text)
    {
        editor.setText(text);
        editor.setCursorPosition(0, 0);
        dialog = new FindReplaceDialog(&editor, &editor);
        dialog->showFind(true);
        findEdit = dialog->findChild<QLineEdit*>("findEdit");
        replaceEdit = dialog->findChild<QLineEdit*>("replaceEdit");
        matchCase = dialog->findChild<QCheckBox*>("matchCase");
        wholeWords = dialog->findChild<QCheckBox*>("wholeWords");
        regex = dialog->findChild<QCheckBox*>("regularExpression");
        next = dialog->findChild<QPushButton*>("findNext");
        replaceOne = dialog->findChild<QPushButton*>("replaceOne");
        replaceAll = dialog->findChild<QPushButton*>("replaceAll");
        status = dialog->findChild<QLabel*>("findStatus");
    }
    bool complete() const
    {
        return findEdit && replaceEdit && matchCase && wholeWords && regex && next && replaceOne && replaceAll
            && status;
    }
    void type(QLineEdit* edit, const QString& text)
    {
        edit->clear();
        QTest::keyClicks(edit, text);
    }
    // The selection's start as (line, index), 0-based.
    std::pair<int, int> selectionStart() const
    {
        int l1, i1, l2, i2;
        editor.getSelection(&l1, &i1, &l2, &i2);
        return {l1, i1};
    }
};

} // namespace

TEST(FindReplace, FindNextWalksThroughMatchesAndWraps)
{
    Find f("alpha beta\nbeta gamma\nbeta\n");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "beta");
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.editor.selectedText(), "beta");
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 6));
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(1, 0));
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(2, 0));
    // Past the last match the search starts over at the top.
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 6));
    EXPECT_TRUE(f.status->text().isEmpty());
}

TEST(FindReplace, ReturnInTheFindFieldFindsNext)
{
    Find f("one two one");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "one");
    QTest::keyClick(f.findEdit, Qt::Key_Return);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 0));
    QTest::keyClick(f.findEdit, Qt::Key_Return);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 8));
}

TEST(FindReplace, MatchCaseSkipsOtherCases)
{
    Find f("Value value VALUE value");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "value");
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 0)) << "without Match case any case matches";
    f.matchCase->setChecked(true);
    f.editor.setCursorPosition(0, 0);
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 6));
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 18));
    EXPECT_EQ(f.editor.selectedText(), "value");
}

TEST(FindReplace, WholeWordsSkipsPartsOfLongerNames)
{
    Find f("int idx = index + idx2 + idx;");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "idx");
    f.wholeWords->setChecked(true);
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 4));
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 25)) << "idx2 is not the word idx";
}

TEST(FindReplace, NotFoundIsReportedAndLeavesTheTextAlone)
{
    const QString text = "float a = 1.0f;\n";
    Find f(text);
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "double");
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_EQ(f.status->text(), "Not found");
    EXPECT_FALSE(f.editor.hasSelectedText());
    f.type(f.replaceEdit, "x");
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), text);
    EXPECT_EQ(f.status->text(), "0 replacements");
    // Found again once there is a match: the message goes away.
    f.type(f.findEdit, "float");
    QTest::mouseClick(f.next, Qt::LeftButton);
    EXPECT_TRUE(f.status->text().isEmpty());
}

TEST(FindReplace, ReplaceOneReplacesTheFoundMatchAndMovesOn)
{
    Find f("a = b; a = c; a = d;");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "a =");
    f.type(f.replaceEdit, "x +=");
    // The first press only finds: nothing is selected yet.
    QTest::mouseClick(f.replaceOne, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "a = b; a = c; a = d;");
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 0));
    QTest::mouseClick(f.replaceOne, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "x += b; a = c; a = d;");
    EXPECT_EQ(f.selectionStart(), std::make_pair(0, 8)) << "the next match is selected";
    QTest::mouseClick(f.replaceOne, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "x += b; x += c; a = d;");
}

TEST(FindReplace, ReplaceOneLeavesASelectionThatIsNotAMatch)
{
    Find f("keep this; change that");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "that");
    f.type(f.replaceEdit, "it");
    QTest::mouseClick(f.next, Qt::LeftButton);
    f.editor.setSelection(0, 0, 0, 4); // the user selects "keep" by hand
    QTest::mouseClick(f.replaceOne, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "keep this; change that");
}

TEST(FindReplace, ReplaceOneWorksWithARegularExpression)
{
    Find f("x[1] = y[22];");
    ASSERT_TRUE(f.complete());
    f.regex->setChecked(true);
    f.type(f.findEdit, "\\[[0-9]+\\]");
    f.type(f.replaceEdit, "[i]");
    QTest::mouseClick(f.next, Qt::LeftButton);
    QTest::mouseClick(f.replaceOne, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "x[i] = y[22];");
}

TEST(FindReplace, ReplaceAllCountsAndRewritesEveryMatch)
{
    Find f("sum += a[i];\nsum *= 2;\nresult = sum;\nsummary = 0;\n");
    ASSERT_TRUE(f.complete());
    f.editor.setCursorPosition(2, 0); // replace all starts at the top wherever the cursor is
    f.type(f.findEdit, "sum");
    f.type(f.replaceEdit, "total");
    f.wholeWords->setChecked(true);
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "total += a[i];\ntotal *= 2;\nresult = total;\nsummary = 0;\n");
    EXPECT_EQ(f.status->text(), "3 replacements");
    // One undo step takes all of them back.
    f.editor.undo();
    EXPECT_EQ(f.editor.text(), "sum += a[i];\nsum *= 2;\nresult = sum;\nsummary = 0;\n");
}

TEST(FindReplace, ReplaceAllSaysOneReplacementInTheSingular)
{
    Find f("a b c");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "b");
    f.type(f.replaceEdit, "x");
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "a x c");
    EXPECT_EQ(f.status->text(), "1 replacement");
    f.type(f.findEdit, "q");
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    EXPECT_EQ(f.status->text(), "0 replacements");
}

TEST(FindReplace, ReplaceAllWithAReplacementContainingTheMatchEnds)
{
    Find f("a a a");
    ASSERT_TRUE(f.complete());
    f.type(f.findEdit, "a");
    f.type(f.replaceEdit, "aa");
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    EXPECT_EQ(f.editor.text(), "aa aa aa");
    EXPECT_EQ(f.status->text(), "3 replacements");
}

TEST(FindReplace, ReplaceAllWithAnEmptyRegexMatchEnds)
{
    // "x*" also matches nothing between characters; the loop must still finish.
    Find f("abc");
    ASSERT_TRUE(f.complete());
    f.regex->setChecked(true);
    f.type(f.findEdit, "x*");
    f.type(f.replaceEdit, "-");
    QTest::mouseClick(f.replaceAll, Qt::LeftButton);
    // One dash before each character; Scintilla may or may not find the empty match
    // at the very end of the text.
    EXPECT_TRUE(f.editor.text() == "-a-b-c" || f.editor.text() == "-a-b-c-") << f.editor.text();
}

TEST(FindReplace, TheEditorOpensTheDialogWithTheSelection)
{
    CodeEditor editor;
    editor.setText("int blockSize = 256;");
    editor.setSelection(0, 4, 0, 13);
    editor.showReplace();
    auto* dialog = editor.findChild<FindReplaceDialog*>();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    auto* findEdit = dialog->findChild<QLineEdit*>("findEdit");
    ASSERT_TRUE(findEdit);
    EXPECT_EQ(findEdit->text(), "blockSize");
    EXPECT_TRUE(dialog->findChild<QLineEdit*>("replaceEdit")->isVisible());
    editor.showFind();
    EXPECT_FALSE(dialog->findChild<QLineEdit*>("replaceEdit")->isVisible()) << "Find alone hides the replace row";
}
