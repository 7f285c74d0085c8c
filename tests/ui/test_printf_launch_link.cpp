// A block clicked in the printf block grid is selected in the launch-shape
// drawing, so one can see where that block sits in the whole grid.
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "MainWindow.hpp"
#include "test_locations.hpp"
#include "views/BlockGridView.hpp"
#include "views/PrintfPanel.hpp"

#include "doc/DocumentReader.hpp"
#include "test_window_options.hpp"

#include <QDockWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

namespace {

// One tagged line per thread of every block.
PrintfOutput everyThreadPrints(Dim3 grid, Dim3 block)
{
    PrintfOutput out;
    for (std::uint32_t by = 0; by < grid.y; ++by)
        for (std::uint32_t bx = 0; bx < grid.x; ++bx)
            for (std::uint32_t t = 0; t < block.x; ++t) {
                PrintfLine l{Dim3{bx, by, 0}, Dim3{t, 0, 0},
                             "block " + std::to_string(bx) + "," + std::to_string(by) + " thread " + std::to_string(t)};
                out.raw += l.text + "\n";
                out.lines.push_back(l);
            }
    return out;
}

bool same(Dim3 a, Dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

void clickBlock(PrintfPanel& panel, Dim3 block)
{
    panel.tabs()->setCurrentIndex(2);
    QCoreApplication::processEvents();
    const QRect cell = panel.blockGrid()->cellRect(block);
    ASSERT_FALSE(cell.isEmpty());
    QTest::mouseClick(panel.blockGrid(), Qt::LeftButton, {}, cell.center());
}

} // namespace

TEST(PrintfLaunchLink, ClickingABlockInThePrintfGridSignalsIt)
{
    const Dim3 grid{4, 3, 1}, block{8, 1, 1};
    PrintfPanel panel;
    panel.resize(900, 500);
    panel.show();
    panel.showOutput(everyThreadPrints(grid, block), grid, block);
    QSignalSpy selected(&panel, &PrintfPanel::blockSelected);
    clickBlock(panel, Dim3{2, 1, 0});
    ASSERT_EQ(selected.count(), 1);
    EXPECT_TRUE(same(selected.at(0).at(0).value<Dim3>(), Dim3{2, 1, 0}));
    // Outside every cell: no selection, no signal.
    QTest::mouseClick(panel.blockGrid(), Qt::LeftButton, {}, QPoint(1, 1));
    EXPECT_EQ(selected.count(), 1);
}

TEST(PrintfLaunchLink, TheShapeViewSelectsOnlyBlocksOfItsGrid)
{
    LaunchShapeView view;
    view.resize(500, 300);
    view.setShape(Dim3{4, 3, 1}, Dim3{8, 1, 1});
    view.selectBlock(Dim3{3, 2, 0});
    EXPECT_TRUE(same(view.selectedBlock(), Dim3{3, 2, 0}));
    view.selectBlock(Dim3{4, 0, 0}); // from a printf view of a larger, older launch
    EXPECT_TRUE(same(view.selectedBlock(), Dim3{3, 2, 0}));
    EXPECT_FALSE(view.blockRect(Dim3{3, 2, 0}).isNull());
}

TEST(PrintfLaunchLink, TheMainWindowShowsThePrintfBlockInTheLaunchDrawing)
{
    const test::TestLocations locations("printf-launch");
    ASSERT_TRUE(locations.ok());
    MainWindow w(test::windowOptions());
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));

    Document doc = DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb");
    doc.launch.grid = {"4", "3", "1"};
    doc.launch.block = {"8", "1", "1"};
    w.loadDocument(doc);
    LaunchShapeView* shape = w.launchPanel()->shapeView();
    const Dim3 target{2, 1, 0};
    ASSERT_FALSE(shape->blockRect(target).isNull()) << "the launch drawing shows the 4 x 3 grid";
    EXPECT_TRUE(same(shape->selectedBlock(), Dim3{0, 0, 0}));

    PrintfPanel* panel = w.printfPanel();
    for (QDockWidget* dock : w.findChildren<QDockWidget*>())
        if (dock->widget() == panel)
            dock->raise();
    panel->showOutput(everyThreadPrints(Dim3{4, 3, 1}, Dim3{8, 1, 1}), Dim3{4, 3, 1}, Dim3{8, 1, 1});
    clickBlock(*panel, target);
    EXPECT_TRUE(same(shape->selectedBlock(), target));
    // The drawing sits below the launch fields; the launch dock scrolls to show the block.
    QCoreApplication::processEvents();
    EXPECT_TRUE(shape->visibleRegion().contains(shape->blockRect(target).center()));

    // The drawing marks that block: its cell has the selection colour, the others not.
    const QImage picture = shape->grab().toImage();
    const QColor marked = picture.pixelColor(shape->blockRect(target).center());
    const QColor other = picture.pixelColor(shape->blockRect(Dim3{0, 0, 0}).center());
    EXPECT_NE(marked, other);
    EXPECT_EQ(other, picture.pixelColor(shape->blockRect(Dim3{3, 2, 0}).center()));

    // Picking another block moves the mark.
    clickBlock(*panel, Dim3{0, 2, 0});
    EXPECT_TRUE(same(shape->selectedBlock(), Dim3{0, 2, 0}));
    const QImage after = shape->grab().toImage();
    EXPECT_EQ(after.pixelColor(shape->blockRect(Dim3{0, 2, 0}).center()), marked);
    EXPECT_EQ(after.pixelColor(shape->blockRect(target).center()), other);
}
