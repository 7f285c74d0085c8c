// The heat map keeps the image's shape by default: square cells, the image centred with
// an empty margin beside it, in any panel, after resizes, zooms and drags; with Square
// cells off, the image is stretched to fill the view.
#include "data/HostBuffer.hpp"
#include "views/HeatMap.hpp"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <memory>

using namespace kw;

namespace {

constexpr std::size_t rows = 240, cols = 320;

std::shared_ptr<HostBuffer> image(std::size_t height = rows, std::size_t width = cols)
{
    auto data = std::make_shared<HostBuffer>(DType::F32, height * width);
    for (std::size_t r = 0; r < height; ++r)
        for (std::size_t c = 0; c < width; ++c)
            data->set(r * width + c, double(r + c));
    return data;
}

void waitUntilShown(HeatMap& map)
{
    EXPECT_TRUE(QTest::qWaitFor([&] { return map.isReady(); }, 10000));
    QCoreApplication::processEvents();
    map.plot()->replot();
}

struct Shown {
    HeatMap map;
    explicit Shown(QSize size, bool square = true)
    {
        map.squareCellsBox()->setChecked(square);
        map.resize(size);
        map.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&map));
        map.setBuffer(image(), {rows, cols}, "img");
        EXPECT_TRUE(QTest::qWaitFor([&] { return map.isReady(); }, 10000));
        settle();
    }
    void settle()
    {
        QCoreApplication::processEvents();
        map.plot()->replot();
    }
    QCPAxis* x() const { return map.plot()->xAxis; }
    QCPAxis* y() const { return map.plot()->yAxis; }
    // Pixels one cell (one unit) covers along each axis.
    double cellWidth() const { return std::abs(x()->coordToPixel(1) - x()->coordToPixel(0)); }
    double cellHeight() const { return std::abs(y()->coordToPixel(1) - y()->coordToPixel(0)); }
    // Across the whole image, x and y cell sizes differ by less than a pixel.
    void expectSquare(const char* when) const
    {
        EXPECT_LT(std::abs(cellWidth() - cellHeight()) * double(std::max(rows, cols)), 1.0)
            << when << ": cell " << cellWidth() << " x " << cellHeight() << " px";
    }
    // The extent the colour map draws (with a tight boundary, cell centre to cell centre).
    QCPRange imageX() const { return map.colorMap()->data()->keyRange(); }
    QCPRange imageY() const { return map.colorMap()->data()->valueRange(); }
    bool showsWholeImage() const
    {
        const QCPRange xr = x()->range(), yr = y()->range();
        const double tol = 1e-6;
        return xr.lower <= imageX().lower + tol && xr.upper >= imageX().upper - tol && yr.lower <= imageY().lower + tol
            && yr.upper >= imageY().upper - tol;
    }
    QPoint plotCentre() const { return map.plot()->axisRect()->rect().center(); }
};

} // namespace

// A 256x256 image in the Results panel under the editor at 1366x768 (wide and low) is
// drawn square: its extent in pixels has the data's columns:rows, centred in the plot.
TEST(HeatMapAspect, ByDefaultASquareImageIsDrawnSquareInAWideLowPanel)
{
    constexpr std::size_t n = 256;
    HeatMap map;
    EXPECT_TRUE(map.squareCellsBox()->isChecked());
    map.resize(880, 180);
    map.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&map));
    map.setBuffer(image(n, n), {n, n}, "img");
    waitUntilShown(map);
    const auto expectDrawnSquare = [&](const char* when) {
        QCPAxis* x = map.plot()->xAxis;
        QCPAxis* y = map.plot()->yAxis;
        // The image's outer edges: cell centres run from 0 to n-1.
        const double left = x->coordToPixel(-0.5), right = x->coordToPixel(n - 0.5);
        const double top = y->coordToPixel(-0.5), bottom = y->coordToPixel(n - 0.5);
        const double width = std::abs(right - left), height = std::abs(bottom - top);
        const QRect rect = map.plot()->axisRect()->rect();
        ASSERT_GT(rect.width(), 2 * rect.height()) << when << ": the panel is wide and low";
        EXPECT_NEAR((width / height) / (double(n) / double(n)), 1.0, 0.01)
            << when << ": image drawn " << width << " x " << height << " px";
        // It fills the height, leaves margins on both sides, and is centred.
        EXPECT_NEAR(height, rect.height(), 1.5) << when;
        EXPECT_LT(width, rect.width() - 100) << when;
        EXPECT_NEAR(0.5 * (left + right), rect.center().x(), 1.5) << when;
    };
    expectDrawnSquare("shown");
    map.resize(1300, 240);
    waitUntilShown(map);
    expectDrawnSquare("after widening");
    map.resize(700, 200);
    waitUntilShown(map);
    expectDrawnSquare("after narrowing");
}

// The margins beside a square image hold no columns: no tick names one there (a 64-wide
// image showed -100 and -50 on its x axis), and the image's own columns keep theirs.
TEST(HeatMapAspect, NoTickNamesAColumnOrRowOutsideTheImage)
{
    constexpr std::size_t n = 64;
    HeatMap map;
    map.resize(880, 180);
    map.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&map));
    map.setBuffer(image(n, n), {n, n}, "img");
    waitUntilShown(map);
    QCPAxis* x = map.plot()->xAxis;
    ASSERT_LT(x->range().lower, -50) << "the square image leaves a margin on the left";
    const QVector<double> ticks = x->tickVector();
    ASSERT_GE(ticks.size(), 2);
    for (double t : ticks) {
        EXPECT_GE(t, -0.5) << "a tick in the margin";
        EXPECT_LE(t, n - 0.5) << "a tick in the margin";
    }
    for (double t : map.plot()->yAxis->tickVector()) {
        EXPECT_GE(t, -0.5);
        EXPECT_LE(t, n - 0.5);
    }
    // Filling the view, the axes are the image's again, ticks and all.
    map.squareCellsBox()->setChecked(false);
    waitUntilShown(map);
    EXPECT_GE(x->tickVector().size(), 2);
}

// Neighbouring tick labels leave room between them: a 240 x 320 image drawn square in the
// Results panel at 1366x768 spans 80 pixels, and its x axis ran "0 50 100 ... 300" together.
void expectLabelsApart(QCPAxis* axis, const char* when)
{
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    ASSERT_GE(ticks.size(), 2) << when;
    const QFontMetrics metrics(axis->tickLabelFont());
    const bool across = axis->orientation() == Qt::Horizontal;
    for (int i = 1; i < ticks.size(); ++i) {
        const double apart = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
        const double needed = across
            ? 0.5 * (metrics.horizontalAdvance(labels[i - 1]) + metrics.horizontalAdvance(labels[i]))
            : metrics.height();
        EXPECT_GT(apart, needed + 4) << when << ": labels " << labels[i - 1].toStdString() << " and "
                                     << labels[i].toStdString() << " are " << apart << " px apart";
    }
}

TEST(HeatMapAspect, TickLabelsDoNotRunIntoEachOtherInASmallImage)
{
    Shown square({880, 180});
    ASSERT_LT(std::abs(square.x()->coordToPixel(cols) - square.x()->coordToPixel(0)), 150)
        << "the image is drawn small, as in the Results panel at 1366x768";
    expectLabelsApart(square.x(), "square cells, x");
    expectLabelsApart(square.y(), "square cells, y");
    Shown filling({880, 120}, false);
    expectLabelsApart(filling.x(), "filling, x");
    expectLabelsApart(filling.y(), "filling, y");
    // Larger, the image gets more ticks again.
    square.map.resize(1600, 900);
    square.settle();
    expectLabelsApart(square.x(), "large, x");
    EXPECT_GE(square.x()->tickVector().size(), 4);
}

TEST(HeatMapAspect, WithSquareCellsOffTheImageFillsTheWholeViewInALowPanel)
{
    // The Results panel under the editor at 1366x768: wide and low.
    Shown s({880, 150}, false);
    EXPECT_TRUE(s.showsWholeImage());
    // Each axis shows the image's extent and nothing more: the image covers the axis rect.
    EXPECT_NEAR(s.x()->range().size(), s.imageX().size(), 1e-6);
    EXPECT_NEAR(s.y()->range().size(), s.imageY().size(), 1e-6);
    EXPECT_GT(s.cellWidth(), 2.0 * s.cellHeight()) << "the cells are stretched to fill the width";
}

TEST(HeatMapAspect, SquareCellsComeAndGoWithTheirBox)
{
    Shown s({880, 150}, false);
    s.map.squareCellsBox()->setChecked(true);
    s.settle();
    s.expectSquare("square cells on");
    EXPECT_TRUE(s.showsWholeImage());
    EXPECT_GT(s.x()->range().size(), s.imageX().size() + 1.0);
    s.map.squareCellsBox()->setChecked(false);
    s.settle();
    EXPECT_NEAR(s.x()->range().size(), s.imageX().size(), 1e-6) << "the image fills the width again";
    EXPECT_NEAR(s.y()->range().size(), s.imageY().size(), 1e-6);
}

TEST(HeatMapAspect, AWideImageInAWidePanelHasSquareCells)
{
    Shown s({1100, 420});
    s.expectSquare("wide panel");
    EXPECT_TRUE(s.showsWholeImage());
    // The panel is wider than the image: the image fills the height, not the width.
    EXPECT_NEAR(s.y()->range().size(), s.imageY().size(), 1e-6);
    EXPECT_GT(s.x()->range().size(), s.imageX().size() + 1.0);
    EXPECT_GT(s.cellWidth(), 1.0);
}

TEST(HeatMapAspect, AWideImageInATallPanelHasSquareCells)
{
    Shown s({380, 900});
    s.expectSquare("tall panel");
    EXPECT_TRUE(s.showsWholeImage());
    EXPECT_NEAR(s.x()->range().size(), s.imageX().size(), 1e-6);
    EXPECT_GT(s.y()->range().size(), s.imageY().size() + 1.0);
}

TEST(HeatMapAspect, CellsStaySquareWhenThePanelIsResized)
{
    Shown s({1100, 420});
    s.map.resize(420, 1000);
    s.settle();
    s.expectSquare("after a resize to tall");
    EXPECT_TRUE(s.showsWholeImage());
    s.map.resize(1200, 500);
    s.settle();
    s.expectSquare("after a resize back to wide");
    EXPECT_TRUE(s.showsWholeImage());
    // Resizing back and forth does not zoom out step by step.
    EXPECT_NEAR(s.y()->range().size(), s.imageY().size(), 1e-6);
}

TEST(HeatMapAspect, ZoomKeepsCellsSquare)
{
    Shown s({900, 500});
    const double before = s.x()->range().size();
    const QPoint at = s.plotCentre();
    QWheelEvent wheel(QPointF(at), QPointF(s.map.plot()->mapToGlobal(at)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(s.map.plot(), &wheel);
    s.settle();
    EXPECT_LT(s.x()->range().size(), before * 0.9) << "the wheel zooms in";
    s.expectSquare("after zooming");
    // A resize keeps the zoomed-in view rather than jumping back to the whole image.
    s.map.resize(1000, 520);
    s.settle();
    s.expectSquare("after zooming and resizing");
    EXPECT_LT(s.x()->range().size(), before * 0.9);
}

TEST(HeatMapAspect, DragPansWithoutChangingTheScale)
{
    Shown s({900, 500});
    const QCPRange x0 = s.x()->range(), y0 = s.y()->range();
    const QPoint from = s.plotCentre(), to = from + QPoint(-120, 60);
    QTest::mousePress(s.map.plot(), Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(s.map.plot(), from + QPoint(-60, 30));
    QTest::mouseMove(s.map.plot(), to);
    QTest::mouseRelease(s.map.plot(), Qt::LeftButton, Qt::NoModifier, to);
    s.settle();
    EXPECT_GT(s.x()->range().center(), x0.center() + 1.0) << "dragging left shows more of the right";
    EXPECT_NE(s.y()->range().center(), y0.center());
    EXPECT_NEAR(s.x()->range().size(), x0.size(), 1e-6);
    EXPECT_NEAR(s.y()->range().size(), y0.size(), 1e-6);
    s.expectSquare("after a drag");
}

TEST(HeatMapAspect, DoubleClickFitsTheWholeImageAgain)
{
    Shown s({900, 500});
    s.x()->setRange(10, 40);
    s.y()->setRange(10, 20);
    s.settle();
    s.expectSquare("after setting ranges in code");
    QTest::mouseDClick(s.map.plot(), Qt::LeftButton, Qt::NoModifier, s.plotCentre());
    s.settle();
    EXPECT_TRUE(s.showsWholeImage());
    s.expectSquare("after the double click");
}
