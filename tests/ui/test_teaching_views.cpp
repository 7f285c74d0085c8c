// What a class needs to see: a 3-D block as z layers with warps in two clearly
// different colours, the value under the cursor on a heat map, a histogram's bins as
// bars, code in the notes at the panel's size, and a dark palette followed everywhere.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "LaunchShapeView.hpp"
#include "NotesPanel.hpp"
#include "ThemeColours.hpp"
#include "data/HostBuffer.hpp"
#include "views/BarChart.hpp"
#include "views/HeatMap.hpp"
#include "views/ResultsPanel.hpp"
#include "views_test_app.hpp"

#include <Qsci/qscilexercpp.h>
#include <qcustomplot.h>

#include <QLabel>
#include <QTest>
#include <QTextBlock>
#include <gtest/gtest.h>

#include <memory>

using namespace kw;

TEST(LaunchShape, AThreeDimensionalBlockIsDrawnAsZLayers)
{
    test::app();
    LaunchShapeView view;
    view.resize(900, 320);
    view.setShape({1, 1, 1}, {3, 4, 5});
    const QRect origin = view.threadRect({0, 0, 0});
    const QRect nextLayer = view.threadRect({0, 0, 1});
    const QRect lastRow = view.threadRect({0, 3, 0});
    ASSERT_FALSE(origin.isNull());
    ASSERT_FALSE(nextLayer.isNull());
    // Each layer is 3 wide and 4 tall; the next z starts a layer of its own, not row 5
    // of one 3x20 column.
    EXPECT_EQ(lastRow.left(), origin.left());
    EXPECT_GT(lastRow.top(), origin.top());
    EXPECT_FALSE(nextLayer.left() == origin.left() && nextLayer.top() == lastRow.top() + origin.height() + 1)
        << "z = 1 continues the column of z = 0";
    EXPECT_TRUE(nextLayer.left() > view.threadRect({2, 0, 0}).right() || nextLayer.top() > lastRow.bottom());
    // Every thread is drawn, none on top of another.
    QList<QRect> all;
    for (std::uint32_t z = 0; z < 5; ++z)
        for (std::uint32_t y = 0; y < 4; ++y)
            for (std::uint32_t x = 0; x < 3; ++x) {
                const QRect r = view.threadRect({x, y, z});
                ASSERT_FALSE(r.isNull());
                for (const QRect& o : all)
                    ASSERT_FALSE(o.intersects(r));
                all << r;
            }
}

TEST(LaunchShape, NeighbouringWarpsHaveClearlyDifferentColours)
{
    const QColor a = LaunchShapeView::warpColour(0), b = LaunchShapeView::warpColour(1);
    EXPECT_EQ(LaunchShapeView::warpColour(2), a);
    // Different hues, not two shades of one green.
    const int hueGap = std::abs(a.hslHue() - b.hslHue());
    EXPECT_GT(std::min(hueGap, 360 - hueGap), 60);
}

TEST(HeatMapReadout, TheValueUnderTheCursorIsShown)
{
    test::app();
    auto data = std::make_shared<HostBuffer>(DType::F32, 12);
    for (std::size_t i = 0; i < 12; ++i)
        data->set(i, double(i) * 0.5);
    HeatMap map;
    map.resize(500, 400);
    map.setBuffer(data, {3, 4}, "img");
    map.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&map));
    EXPECT_EQ(map.describeElement(2, 1).toStdString(), "x 2, y 1: 3"); // element 6
    EXPECT_TRUE(map.describeElement(4, 0).isEmpty());
    QCustomPlot* plot = map.plot();
    plot->replot();
    const QPoint pixel(int(plot->xAxis->coordToPixel(3)), int(plot->yAxis->coordToPixel(2)));
    QMouseEvent move(QEvent::MouseMove, QPointF(pixel), plot->mapToGlobal(QPointF(pixel)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    EXPECT_EQ(map.readout()->text().toStdString(), "x 3, y 2: 5.5"); // element 11
}

TEST(HistogramBins, ACountBufferIsDrawnAsBars)
{
    test::app();
    auto result = std::make_shared<RunResult>();
    BufferResult bins;
    bins.name = "bins";
    bins.direction = Direction::Out;
    bins.data = HostBuffer(DType::U32, 256);
    for (std::size_t i = 0; i < 256; ++i)
        bins.data.set(i, double(511 - 2 * i));
    result->buffers.push_back(std::move(bins));
    ResultsPanel panel;
    panel.resize(600, 400);
    panel.showResult(std::shared_ptr<const RunResult>(result));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.fillPending(); }, 2000));
    EXPECT_TRUE(panel.showsBars());
    EXPECT_EQ(panel.barChart()->bars()->data()->size(), 256);
    EXPECT_DOUBLE_EQ(panel.barChart()->bars()->data()->at(0)->value, 511.0);
    // Floating-point data stays a line.
    BufferResult f;
    f.name = "f";
    f.direction = Direction::Out;
    f.data = HostBuffer(DType::F32, 256);
    EXPECT_FALSE(BarChart::suits(f));
}

TEST(Notes, CodeInTheNotesFollowsThePanelsFontSize)
{
    test::app();
    NotesPanel notes;
    notes.setNotes("T", "Call `atomicAdd` here.\n\n```\nint x = 1;\n```\n");
    QFont big = notes.font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    notes.setFont(big);
    int fixed = 0;
    for (QTextBlock b = notes.document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().fontFixedPitch()
                || b.blockFormat().hasProperty(QTextFormat::BlockCodeFence)) {
                ++fixed;
                EXPECT_DOUBLE_EQ(it.fragment().charFormat().fontPointSize(), big.pointSizeF());
            }
    EXPECT_GE(fixed, 2);
}

TEST(DarkTheme, EditorAndBannerFollowADarkPalette)
{
    QApplication& app = test::app();
    const QPalette light = QApplication::palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(40, 40, 40));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    dark.setColor(QPalette::Highlight, QColor(50, 100, 170));
    QApplication::setPalette(dark);
    {
        CodeEditor editor;
        editor.setText("__global__ void k() { int x = 1; }\n");
        EXPECT_LT(QColor(editor.paper()).lightness(), 80);
        EXPECT_GT(editor.color().lightness(), 180);
        // Keywords stay readable on dark paper.
        EXPECT_GT(editor.lexer()->color(QsciLexerCPP::Keyword).lightness(), 110);
        ErrorBanner banner;
        banner.showError("Compile failed", "1 error");
        const QColor back = ThemeColours::tint(dark, ThemeColours::error(dark));
        EXPECT_LT(back.lightness(), 100);
        EXPECT_TRUE(banner.styleSheet().contains(back.name())) << banner.styleSheet().toStdString();
    }
    QApplication::setPalette(light);
    (void)app;
}
