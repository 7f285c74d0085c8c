#include "views/AspectRatioLock.hpp"
#include "views/RangeLimitedTicker.hpp"

#include <qcustomplot.h>

#include <algorithm>

namespace kw {

AspectRatioLock::AspectRatioLock(QCustomPlot* plot)
    : QObject(plot)
    , plot_(plot)
{
    xTicker_ = QSharedPointer<RangeLimitedTicker>::create();
    yTicker_ = QSharedPointer<RangeLimitedTicker>::create();
    plot_->xAxis->setTicker(xTicker_);
    plot_->yAxis->setTicker(yTicker_);
    rangesSet();
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &AspectRatioLock::rangesSet);
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &AspectRatioLock::rangesSet);
    // The axis rect's size is only known once the layout ran, right before drawing.
    connect(plot_, &QCustomPlot::afterLayout, this, &AspectRatioLock::afterLayout);
}

void AspectRatioLock::setActive(bool on)
{
    if (on == active_)
        return;
    active_ = on;
    dirty_ = true;
    if (!on) { // the ranges asked for, without the margins that kept the cells square
        xTicker_->clearLimit();
        yTicker_->clearLimit();
        adjusting_ = true;
        plot_->xAxis->setRange(wantX_[0], wantX_[1]);
        plot_->yAxis->setRange(wantY_[0], wantY_[1]);
        adjusting_ = false;
    }
    plot_->replot();
}

void AspectRatioLock::rangesSet()
{
    if (adjusting_)
        return;
    const QCPRange x = plot_->xAxis->range(), y = plot_->yAxis->range();
    wantX_[0] = x.lower;
    wantX_[1] = x.upper;
    wantY_[0] = y.lower;
    wantY_[1] = y.upper;
    dirty_ = true;
}

void AspectRatioLock::afterLayout()
{
    QCPAxisRect* rect = plot_->axisRect();
    const QSize size = rect->size();
    if (!active_) {
        if (spaceTicks(size.width(), size.height()))
            retick(rect);
        else
            settling_ = 0;
        return;
    }
    if (size.width() <= 0 || size.height() <= 0 || (!dirty_ && size == fittedTo_)) {
        settling_ = 0;
        return;
    }
    const double wx = wantX_[1] - wantX_[0], wy = wantY_[1] - wantY_[0];
    if (wx <= 0 || wy <= 0)
        return;
    // Pixels per unit that show all of both wanted ranges.
    const double scale = std::min(size.width() / wx, size.height() / wy);
    const double cx = 0.5 * (wantX_[0] + wantX_[1]), cy = 0.5 * (wantY_[0] + wantY_[1]);
    const double hx = 0.5 * size.width() / scale, hy = 0.5 * size.height() / scale;
    spaceTicks(wx * scale, wy * scale);
    // The margins hold no data: no ticks there.
    xTicker_->setLimit(wantX_[0], wantX_[1]);
    yTicker_->setLimit(wantY_[0], wantY_[1]);
    adjusting_ = true;
    plot_->xAxis->setRange(cx - hx, cx + hx);
    plot_->yAxis->setRange(cy - hy, cy + hy);
    adjusting_ = false;
    fittedTo_ = size;
    dirty_ = false;
    retick(rect);
}

void AspectRatioLock::retick(QCPAxisRect* rect)
{
    // Ticks were placed for the old ranges in this same layout pass, and the margins were
    // measured for their labels: a presentation's larger labels in the old margins lost
    // the y axis' name off the plot's edge. Another pass measures them again; a few at
    // most, should margins and ticks keep changing each other.
    rect->update(QCPLayoutElement::upPreparation);
    if (settling_++ < 3)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool AspectRatioLock::spaceTicks(double xPixels, double yPixels)
{
    // A label such as "250" takes about 30 pixels across and 15 up: five of them in the
    // 80 pixels of a small square image ran into each other.
    const int x = std::clamp(int(xPixels / 60), 2, 5), y = std::clamp(int(yPixels / 30), 2, 5);
    const bool changed = x != xTicker_->tickCount() || y != yTicker_->tickCount();
    xTicker_->setTickCount(x);
    yTicker_->setTickCount(y);
    return changed;
}

} // namespace kw
