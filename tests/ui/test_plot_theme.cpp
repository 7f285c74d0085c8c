// Plots follow the palette: a dark desktop gives dark plot backgrounds with light
// axes, ticks, labels and legend text, also when the palette changes after the
// plot was made; the data colours stay the plot's own.
#include "views/LinePlot.hpp"
#include "views/PlotTheme.hpp"

#include <QApplication>
#include <gtest/gtest.h>
#include <qcustomplot.h>

using namespace kw;

namespace {

QPalette darkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(40, 40, 40));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(225, 225, 225));
    return dark;
}

} // namespace

TEST(PlotTheme, APlotTakesThePalettesColoursAndFollowsAChange)
{
    QCustomPlot plot;
    plot.addGraph();
    plot.graph(0)->setPen(QPen(QColor(31, 119, 180)));
    PlotTheme::follow(&plot);
    const QColor lightText = plot.palette().color(QPalette::Text);
    EXPECT_EQ(plot.xAxis->tickLabelColor(), lightText);

    plot.setPalette(darkPalette()); // the desktop turns dark after the plot was made
    EXPECT_EQ(plot.axisRect()->backgroundBrush().color(), QColor(30, 30, 30));
    for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
        EXPECT_EQ(axis->tickLabelColor(), QColor(225, 225, 225));
        EXPECT_EQ(axis->labelColor(), QColor(225, 225, 225));
        EXPECT_EQ(axis->basePen().color(), QColor(225, 225, 225));
    }
    EXPECT_EQ(plot.legend->textColor(), QColor(225, 225, 225));
    EXPECT_EQ(plot.graph(0)->pen().color(), QColor(31, 119, 180)) << "data colours are left alone";
}

TEST(PlotTheme, TheResultsLinePlotIsDarkUnderADarkPalette)
{
    const QPalette before = QApplication::palette();
    QApplication::setPalette(darkPalette());
    LinePlot view;
    auto* plot = view.findChild<QCustomPlot*>();
    ASSERT_NE(plot, nullptr);
    EXPECT_EQ(plot->axisRect()->backgroundBrush().color(), QColor(30, 30, 30));
    EXPECT_EQ(plot->yAxis->tickLabelColor(), QColor(225, 225, 225));
    QApplication::setPalette(before);
}
