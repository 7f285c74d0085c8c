#include "data/HostBuffer.hpp"
#include "views/BufferTableModel.hpp"
#include "views/BufferTableView.hpp"
#include "views/ChecksView.hpp"
#include "views/HeatMap.hpp"
#include "views/HistogramView.hpp"
#include "views/LinePlot.hpp"
#include "views/ResultsPanel.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMouseEvent>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <cmath>

using namespace kw;

TEST(BufferTableModel, PagesThroughALargeBufferWithoutCopying)
{
    test::app();
    const std::size_t n = 20'000'000; // 80 MB of f32
    auto data = std::make_shared<HostBuffer>(DType::F32, n);
    data->set(0, 1.5);
    data->set(1'234'567, -2.25);
    data->set(n - 1, 42);
    const std::byte* storage = data->data();

    BufferTableModel model;
    model.setBuffer(data, {n});
    EXPECT_EQ(data->data(), storage);
    EXPECT_EQ(data.use_count(), 2); // shared, not copied
    EXPECT_EQ(model.totalRows(), n);
    EXPECT_EQ(model.columnCount(), 1);
    EXPECT_EQ(model.rowCount(), int(model.pageRows()));
    EXPECT_EQ(model.pageCount(), (n + model.pageRows() - 1) / model.pageRows());
    EXPECT_EQ(model.index(0, 0).data().toString(), "1.5");

    const auto loc = model.locate(1'234'567);
    model.setPage(loc.page);
    EXPECT_EQ(model.index(loc.row, loc.column).data(Qt::EditRole).toDouble(), -2.25);
    EXPECT_EQ(model.headerData(loc.row, Qt::Vertical).toString(), "1234567");

    model.setPage(model.pageCount() - 1);
    EXPECT_EQ(model.rowCount(), int(n - (model.pageCount() - 1) * model.pageRows()));
    EXPECT_EQ(model.index(model.rowCount() - 1, 0).data().toString(), "42");
}

TEST(BufferTableModel, ShowsATwoDimensionalShapeAsRowsAndColumns)
{
    test::app();
    auto data = std::make_shared<HostBuffer>(DType::I32, 300 * 7);
    for (std::size_t i = 0; i < data->count(); ++i)
        data->set(i, double(i));
    BufferTableModel model;
    model.setPageRows(128);
    model.setBuffer(data, {300, 7});
    EXPECT_EQ(model.columnCount(), 7);
    EXPECT_EQ(model.totalRows(), 300u);
    EXPECT_EQ(model.rowCount(), 128);
    EXPECT_EQ(model.index(2, 5).data().toString(), "19");
    model.setPage(2);
    EXPECT_EQ(model.rowCount(), 300 - 256);
    EXPECT_EQ(model.index(0, 0).data().toString(), QString::number(256 * 7));

    BufferTableView view;
    view.model()->setPageRows(128);
    view.setBuffer(data, {300, 7});
    view.showElement(299 * 7 + 6);
    EXPECT_EQ(view.model()->page(), 2u);
    EXPECT_EQ(view.table()->currentIndex().data().toString(), QString::number(299 * 7 + 6));
}

TEST(HeatMap, AveragesLargeImagesDownToTheCellLimit)
{
    test::app();
    const std::size_t rows = 3000, cols = 2048;
    auto data = std::make_shared<HostBuffer>(DType::F32, rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            data->set(r * cols + c, r < rows / 2 ? 1.0 : 3.0);
    HeatMap map;
    map.setBuffer(data, {rows, cols}, "img");
    ASSERT_TRUE(QTest::qWaitFor([&] { return map.isReady(); }, 10000)); // averaged on a worker
    auto* d = map.colorMap()->data();
    EXPECT_LE(d->keySize(), HeatMap::maxCells);
    EXPECT_LE(d->valueSize(), HeatMap::maxCells);
    EXPECT_DOUBLE_EQ(d->cell(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(d->cell(d->keySize() - 1, d->valueSize() - 1), 3.0);
    EXPECT_EQ(map.colorMap()->dataRange().lower, 1.0);
    EXPECT_EQ(map.colorMap()->dataRange().upper, 3.0);
}

TEST(HistogramView, CountsEveryFiniteValue)
{
    test::app();
    auto data = std::make_shared<HostBuffer>(DType::F64, 1000);
    for (std::size_t i = 0; i < 1000; ++i)
        data->set(i, double(i % 10));
    data->set(5, std::nan(""));
    HistogramView h;
    h.setBins(10);
    h.setBuffer(data, "v");
    ASSERT_TRUE(QTest::qWaitFor([&] { return h.isReady(); }, 10000));
    // Ten values, ten bins: each bin holds one value's 100 copies, less the NaN for 5.
    ASSERT_EQ(h.bars()->dataCount(), 10);
    double total = 0;
    int short99 = 0;
    for (auto it = h.bars()->data()->constBegin(); it != h.bars()->data()->constEnd(); ++it) {
        EXPECT_TRUE(it->value == 100.0 || it->value == 99.0) << it->value;
        short99 += it->value == 99.0 ? 1 : 0;
        total += it->value;
    }
    EXPECT_EQ(short99, 1);
    EXPECT_EQ(total, 999.0);
}

namespace {
RunResult resultWithChecks()
{
    RunResult r;
    r.ok = false;
    BufferResult a;
    a.name = "c";
    a.direction = Direction::Out;
    a.shape = {400};
    a.data = HostBuffer(DType::F32, 400);
    BufferResult img;
    img.name = "img";
    img.direction = Direction::Out;
    img.shape = {16, 32};
    img.data = HostBuffer(DType::U8, 16 * 32);
    BufferResult in;
    in.name = "a";
    in.direction = Direction::In;
    in.shape = {400};
    in.data = HostBuffer(DType::F32, 400);
    r.buffers = {in, a, img};
    CheckResult pass{"img", "x + y", true, 512, 0, 0, 0, {}};
    CheckResult fail{"c", "a + b", false, 400, 3, 0.5, 0.25, {{7, 1.5, 1.0}, {9, 0.0, 0.25}, {100, 2.0, 2.5}}};
    r.checks = {pass, fail};
    return r;
}
} // namespace

TEST(ResultsPanel, ListsOutputsFirstAndPicksTheViewFromTheShape)
{
    test::app();
    ResultsPanel panel;
    panel.showResult(resultWithChecks());
    ASSERT_EQ(panel.bufferSelector()->count(), 3);
    EXPECT_EQ(panel.bufferSelector()->itemText(0), "c");
    EXPECT_EQ(panel.bufferSelector()->itemText(2), "a (in)");
    EXPECT_FALSE(panel.showsHeatMap());
    panel.selectBuffer(2); // img, 16 x 32
    EXPECT_TRUE(panel.showsHeatMap());
    EXPECT_EQ(panel.table()->model()->columnCount(), 32);
    // A failed check leads: the checks tab is current and says 1/2.
    EXPECT_EQ(panel.tabs()->currentWidget(), panel.checks());
    EXPECT_TRUE(panel.tabs()->tabText(panel.tabs()->currentIndex()).startsWith("Checks 1/2"));
}

TEST(ChecksView, ShowsPassFailErrorsAndFirstMismatches)
{
    test::app();
    ChecksView view;
    const RunResult r = resultWithChecks();
    view.setChecks(r.checks);
    EXPECT_EQ(view.summaryTable()->rowCount(), 2);
    EXPECT_EQ(view.summaryTable()->item(0, 0)->text(), "PASS");
    EXPECT_EQ(view.summaryTable()->item(1, 0)->text(), "FAIL");
    EXPECT_EQ(view.mismatchTable()->rowCount(), 3);
    EXPECT_EQ(view.mismatchTable()->item(2, 1)->text(), "100");
    EXPECT_EQ(view.mismatchTable()->item(2, 4)->text(), "-0.5");
    ASSERT_EQ(view.errorPlot()->graphCount(), 1);
    auto* g = view.errorPlot()->graph(0);
    ASSERT_EQ(g->dataCount(), 3);
    EXPECT_EQ(g->data()->at(0)->key, 7.0);
    EXPECT_EQ(g->data()->at(0)->value, 0.5);
    EXPECT_TRUE(view.headline()->text().contains("1 of 2"));
}

TEST(ResultsPanel, FillsThePlotInTheNextPassOfTheEventLoop)
{
    test::app();
    ResultsPanel panel;
    RunResult r = resultWithChecks();
    r.checks.clear();
    panel.showResult(r);
    // The view is chosen at once; drawing it waits for the event loop.
    EXPECT_FALSE(panel.showsHeatMap());
    EXPECT_TRUE(panel.fillPending());
    EXPECT_EQ(panel.linePlot()->drawnPointCount(), 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.fillPending(); }, 5000));
    EXPECT_GT(panel.linePlot()->drawnPointCount(), 0);
}

TEST(ResultsPanel, AFirstResultDoesNotChangeThePanelsMinimumHeight)
{
    // A taller minimum re-lays out the dock and redraws every plot in it while the
    // result is being shown; the empty panel must already have its final height.
    test::app();
    ResultsPanel panel;
    panel.resize(900, 500);
    panel.show();
    QCoreApplication::processEvents();
    const int before = panel.minimumSizeHint().height();
    panel.showResult(resultWithChecks());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.fillPending(); }, 5000));
    EXPECT_EQ(panel.minimumSizeHint().height(), before);
    panel.clear();
    EXPECT_EQ(panel.minimumSizeHint().height(), before);
}

// The heat map's value under the mouse is told after the buffer's shape in the row above
// (its own row beside the tabs would squeeze them in a narrow column), and goes when the
// mouse leaves the image.
TEST(ResultsPanel, TheValueUnderTheMouseFollowsTheBuffersShape)
{
    test::app();
    ResultsPanel panel;
    panel.resize(900, 260);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.showResult(resultWithChecks());
    panel.selectBuffer(2); // img, 16 x 32
    panel.tabs()->setCurrentIndex(0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.heatMap()->isReady() && panel.showsHeatMap(); }, 5000));
    QCoreApplication::processEvents();
    QCustomPlot* plot = panel.heatMap()->plot();
    plot->replot();
    QLabel* info = nullptr;
    for (QLabel* l : panel.findChildren<QLabel*>())
        if (l->text().startsWith("u8 [16 x 32]"))
            info = l;
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->toolTip().toStdString(), "u8, shape 16 x 32 (512 elements)");
    EXPECT_FALSE(panel.heatMap()->readout()->isVisible()) << "no readout of its own beside the tabs";
    const QPoint at(int(plot->xAxis->coordToPixel(3)), int(plot->yAxis->coordToPixel(2)));
    QTest::mouseMove(plot, at);
    QMouseEvent move(QEvent::MouseMove, QPointF(at), plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    EXPECT_EQ(info->text().toStdString(), "u8 [16 x 32] · x 3, y 2: 0");
    const QPoint outside(int(plot->xAxis->coordToPixel(-5)), at.y());
    QMouseEvent away(QEvent::MouseMove, QPointF(outside), plot->mapToGlobal(QPointF(outside)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &away);
    EXPECT_EQ(info->text().toStdString(), "u8 [16 x 32]");
}

TEST(ResultsPanel, ARunAgainIsDrawnAtOnceInTheViewAlreadyShowing)
{
    test::app();
    ResultsPanel panel;
    RunResult r = resultWithChecks();
    r.checks.clear();
    panel.showResult(r);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.fillPending(); }, 5000));
    ASSERT_GT(panel.linePlot()->drawnPointCount(), 0);
    // The same view again (a run while typing): filled now, so the next paint has it.
    panel.clear();
    panel.showResult(r);
    EXPECT_TRUE(panel.fillPending()) << "after clear the view is switched to again";
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.fillPending(); }, 5000));
    RunResult again = r;
    auto* f = reinterpret_cast<float*>(again.buffers[1].data.data()); // "c", the plotted output
    f[0] += 100;
    panel.showResult(again);
    EXPECT_FALSE(panel.fillPending());
    EXPECT_GT(panel.linePlot()->drawnPointCount(), 0);
    EXPECT_TRUE(panel.linePlot()->isExact()) << "a small buffer's summary is made at once";
    EXPECT_GE(panel.linePlot()->plot()->yAxis->range().upper, f[0]) << "the new values, not the old ones";
}
