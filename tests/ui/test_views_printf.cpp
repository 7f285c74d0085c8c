#include "views/BlockGridView.hpp"
#include "views/PrintfFilterProxy.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PrintfTableModel.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

using namespace kw;

namespace {

// hello_from_gpu-like output: grid 2x3x2, block 4x1x1; block (x,y,z) prints x+y+1 lines
// per thread-0 and one line per other thread.
PrintfOutput sampleOutput(Dim3 grid, Dim3 block)
{
    PrintfOutput out;
    for (std::uint32_t z = 0; z < grid.z; ++z)
        for (std::uint32_t y = 0; y < grid.y; ++y)
            for (std::uint32_t x = 0; x < grid.x; ++x)
                for (std::uint32_t t = 0; t < block.x; ++t) {
                    const int repeats = t == 0 ? int(x + y + 1) : 1;
                    for (int r = 0; r < repeats; ++r) {
                        PrintfLine l{Dim3{x, y, z}, Dim3{t, 0, 0},
                                     "hello from block " + std::to_string(x) + "," + std::to_string(y) + ","
                                         + std::to_string(z) + " thread " + std::to_string(t)};
                        out.raw += l.text + "\n";
                        out.lines.push_back(l);
                    }
                }
    return out;
}

int expectedCount(const Dim3& b, const Dim3& block) { return int(b.x + b.y + 1) + int(block.x) - 1; }

} // namespace

TEST(PrintfFilterProxy, ParsesDimensionFilters)
{
    const auto f = PrintfFilterProxy::parseDimFilter("(3, *, 1)");
    ASSERT_TRUE(f);
    EXPECT_TRUE(PrintfFilterProxy::matches(*f, Dim3{3, 9, 1}));
    EXPECT_FALSE(PrintfFilterProxy::matches(*f, Dim3{3, 9, 0}));
    const auto x = PrintfFilterProxy::parseDimFilter("2");
    ASSERT_TRUE(x);
    EXPECT_TRUE(PrintfFilterProxy::matches(*x, Dim3{2, 5, 7}));
    EXPECT_FALSE(PrintfFilterProxy::matches(*x, Dim3{1, 0, 0}));
    EXPECT_TRUE(PrintfFilterProxy::parseDimFilter("")); // no filter
    EXPECT_FALSE(PrintfFilterProxy::parseDimFilter("a,b"));
    EXPECT_FALSE(PrintfFilterProxy::parseDimFilter("1,2,3,4"));
}

TEST(PrintfPanel, TableFiltersByBlockThreadAndText)
{
    test::app();
    const Dim3 grid{2, 3, 2}, block{4, 1, 1};
    const PrintfOutput out = sampleOutput(grid, block);
    PrintfPanel panel;
    panel.showOutput(out, grid, block);
    auto* proxy = panel.filterModel();
    ASSERT_EQ(proxy->rowCount(), int(out.lines.size()));

    panel.blockFilter()->setText("1,2,0");
    EXPECT_EQ(proxy->rowCount(), expectedCount(Dim3{1, 2, 0}, block));
    for (int r = 0; r < proxy->rowCount(); ++r)
        EXPECT_EQ(proxy->index(r, PrintfTableModel::BlockColumn).data().toString(), "(1, 2, 0)");

    panel.threadFilter()->setText("0");
    EXPECT_EQ(proxy->rowCount(), 1 + 2 + 1); // thread 0 of block (1,2,0) prints x+y+1 lines

    panel.blockFilter()->clear();
    panel.threadFilter()->setText("3");
    panel.textFilter()->setText("BLOCK 0,1,1"); // case-insensitive substring
    EXPECT_EQ(proxy->rowCount(), 1);
    EXPECT_EQ(proxy->index(0, PrintfTableModel::ThreadColumn).data().toString(), "(3, 0, 0)");

    panel.textFilter()->clear();
    panel.threadFilter()->setText("x"); // invalid: flagged, filter off
    EXPECT_FALSE(panel.threadFilter()->styleSheet().isEmpty());
    EXPECT_EQ(proxy->rowCount(), int(out.lines.size()));
}

TEST(PrintfPanel, ConsoleShowsAllLinesAndWarnsWhenTruncated)
{
    test::app();
    const Dim3 grid{3, 4, 1}, block{5, 1, 1};
    PrintfOutput out = sampleOutput(grid, block);
    out.untagged = {"printed with a runtime format"};
    out.raw += "printed with a runtime format\n";
    PrintfPanel panel;
    panel.showOutput(out, grid, block);
    EXPECT_EQ(panel.console()->document()->blockCount(), int(out.lines.size()) + 1);
    EXPECT_TRUE(panel.truncationWarning()->isHidden());

    out.truncated = true;
    panel.showOutput(out, grid, block);
    EXPECT_FALSE(panel.truncationWarning()->isHidden());
    EXPECT_TRUE(panel.truncationWarning()->text().contains("cut off"));
}

TEST(BlockGridView, CountsLinesPerBlockAndShowsAZSlice)
{
    test::app();
    const Dim3 grid{2, 3, 2}, block{4, 1, 1};
    const PrintfOutput out = sampleOutput(grid, block);
    PrintfPanel panel;
    panel.resize(900, 600);
    panel.show();
    panel.showOutput(out, grid, block);
    BlockGridView* view = panel.blockGrid();
    for (std::uint32_t z = 0; z < 2; ++z)
        for (std::uint32_t y = 0; y < 3; ++y)
            for (std::uint32_t x = 0; x < 2; ++x)
                EXPECT_EQ(view->lineCount(Dim3{x, y, z}), expectedCount(Dim3{x, y, z}, block));
    EXPECT_EQ(view->maxLineCount(), expectedCount(Dim3{1, 2, 0}, block));
    EXPECT_FALSE(panel.sliceSelector()->isHidden());
    EXPECT_GT(BlockGridView::colourFor(1, 10).lightness(), BlockGridView::colourFor(10, 10).lightness());

    // Clicking block (1,2) on slice z=1 lists exactly that block's lines.
    panel.tabs()->setCurrentIndex(2);
    panel.sliceSelector()->setValue(1);
    QApplication::processEvents();
    EXPECT_EQ(view->slice(), 1);
    QSignalSpy clicked(view, &BlockGridView::blockClicked);
    const QRect cell = view->cellRect(Dim3{1, 2, 1});
    QTest::mouseClick(view, Qt::LeftButton, {}, cell.center());
    ASSERT_EQ(clicked.count(), 1);
    const auto b = clicked.at(0).at(0).value<Dim3>();
    EXPECT_EQ(b.x, 1u);
    EXPECT_EQ(b.y, 2u);
    EXPECT_EQ(b.z, 1u);
    EXPECT_EQ(panel.blockLines()->topLevelItemCount(), expectedCount(Dim3{1, 2, 1}, block));
    for (int i = 0; i < panel.blockLines()->topLevelItemCount(); ++i)
        EXPECT_TRUE(panel.blockLines()->topLevelItem(i)->text(1).contains("block 1,2,1"));
}

TEST(BlockGridView, WrapsAOneDimensionalGrid)
{
    test::app();
    std::vector<PrintfLine> lines;
    for (std::uint32_t x = 0; x < 1000; x += 7)
        lines.push_back(PrintfLine{Dim3{x, 0, 0}, Dim3{0, 0, 0}, "x"});
    BlockGridView view;
    view.resize(400, 300);
    view.setOutput(lines, Dim3{1000, 1, 1});
    view.show();
    QApplication::processEvents();
    // Every block maps back to itself through its cell.
    for (std::uint32_t x : {0u, 1u, 499u, 999u}) {
        const auto b = view.blockAt(view.cellRect(Dim3{x, 0, 0}).center());
        ASSERT_TRUE(b) << x;
        EXPECT_EQ(b->x, x);
    }
    EXPECT_LE(view.cellRect(Dim3{999, 0, 0}).right(), view.width());
    EXPECT_EQ(view.lineCount(Dim3{7, 0, 0}), 1);
    EXPECT_EQ(view.lineCount(Dim3{8, 0, 0}), 0);
}
