#include "PlotTheme.hpp"

#include <qcustomplot.h>

#include <QEvent>

namespace kw {

PlotTheme::PlotTheme(QCustomPlot* plot)
    : QObject(plot)
{
}

void PlotTheme::follow(QCustomPlot* plot)
{
    plot->installEventFilter(new PlotTheme(plot));
    apply(plot);
}

void PlotTheme::apply(QCustomPlot* plot)
{
    const QPalette& p = plot->palette();
    const QColor text = p.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(45);
    auto style = [&](QCPAxis* axis) {
        axis->setBasePen(QPen(text, 0));
        axis->setTickPen(QPen(text, 0));
        axis->setSubTickPen(QPen(text, 0));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    };
    plot->setBackground(p.brush(QPalette::Base));
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(p.brush(QPalette::Base));
        for (QCPAxis* axis : rect->axes())
            style(axis);
    }
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(e))
            style(scale->axis()); // a heat map's colour bar
    QColor legendBack = p.color(QPalette::Base);
    legendBack.setAlpha(210);
    plot->legend->setBrush(legendBack);
    plot->legend->setBorderPen(QPen(text, 0));
    plot->legend->setTextColor(text);
}

bool PlotTheme::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        auto* plot = static_cast<QCustomPlot*>(watched);
        apply(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return QObject::eventFilter(watched, event);
}

} // namespace kw
