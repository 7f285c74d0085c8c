#pragma once
// Gives a QCustomPlot the palette's colours (background, axes, ticks, labels, grid,
// legend) and keeps them when the palette changes, so plots follow a dark desktop
// like the rest of the window. Data colours stay the plots' own.
#include <QObject>

class QCustomPlot;

namespace kw {

class PlotTheme : public QObject {
    Q_OBJECT
public:
    // Applies the plot's palette now and on every palette change; owned by the plot.
    static void follow(QCustomPlot* plot);
    static void apply(QCustomPlot* plot);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit PlotTheme(QCustomPlot* plot);
};

} // namespace kw
